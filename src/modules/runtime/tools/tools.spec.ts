import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, symlink, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createBashTool } from '@/modules/runtime/tools/bash.tool';
import { BUILTIN_TOOLS, toolSpec } from '@/modules/runtime/tools/builtin-tools';
import { editTool } from '@/modules/runtime/tools/edit.tool';
import { globTool } from '@/modules/runtime/tools/glob.tool';
import { createGrepTool, grepTool } from '@/modules/runtime/tools/grep.tool';
import { listTool } from '@/modules/runtime/tools/list.tool';
import { readTool } from '@/modules/runtime/tools/read.tool';
import { parseToolInput } from '@/modules/runtime/tools/tool-input';
import { ToolContext } from '@/modules/runtime/tools/tool.types';
import { writeTool } from '@/modules/runtime/tools/write.tool';

/** What list, glob and grep add for the link `escape`, which leads out of the location. */
const OUTSIDE_NOTE =
  '(skipped a link leading outside the location: escape/; name one as the path to be asked for external_directory)';

describe('runtime tools', () => {
  let root: string;
  let location: string;
  let outside: string;
  let ctx: ToolContext;

  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'outpost-tools-'));
    location = join(root, 'project');
    outside = join(root, 'elsewhere');
    await mkdir(join(location, 'src', 'deep'), { recursive: true });
    await mkdir(join(location, 'node_modules', 'dep'), { recursive: true });
    await mkdir(outside);
    await writeFile(join(location, 'src', 'a.ts'), 'export const a = 1;\nexport const b = 2;\n');
    await writeFile(join(location, 'src', 'deep', 'c.ts'), 'const c = "needle";\n');
    await writeFile(join(location, 'README.md'), '# Project\nneedle in the readme\n');
    await writeFile(join(location, 'node_modules', 'dep', 'index.js'), 'needle in a dependency\n');
    await writeFile(join(outside, 'secret.txt'), 'outside content\n');
    await symlink(outside, join(location, 'escape'));
    ctx = { directory: location, signal: new AbortController().signal };
  });

  afterEach(() => rm(root, { recursive: true, force: true }));

  describe('paths and permission checks', () => {
    it('names inside paths relative to the location', () => {
      expect(readTool.permissions({ filePath: 'src/a.ts' }, location)).toEqual([
        { action: 'read', resource: 'src/a.ts' },
      ]);
      expect(readTool.permissions({ filePath: join(location, 'src', 'a.ts') }, location)).toEqual([
        { action: 'read', resource: 'src/a.ts' },
      ]);
      expect(writeTool.permissions({ filePath: 'new/dir/file.ts', content: '' }, location)).toEqual([
        { action: 'edit', resource: 'new/dir/file.ts' },
      ]);
      expect(createBashTool().permissions({ command: 'npm test' }, location)).toEqual([
        { action: 'bash', resource: 'npm test' },
      ]);
    });

    it('reports a path outside the location, by .. or absolute or through a symlink, as external_directory', () => {
      const external = { action: 'external_directory', resource: join(outside, '*') };
      expect(readTool.permissions({ filePath: '../elsewhere/secret.txt' }, location)).toEqual([
        { action: 'read', resource: join(outside, 'secret.txt') },
        external,
      ]);
      expect(
        editTool.permissions({ filePath: join(outside, 'x'), oldString: 'a', newString: 'b' }, location),
      ).toEqual([{ action: 'edit', resource: join(outside, 'x') }, external]);
      expect(readTool.permissions({ filePath: 'escape/secret.txt' }, location)).toContainEqual(external);
      expect(listTool.permissions({ path: outside }, location)).toContainEqual(external);
      expect(grepTool.permissions({ pattern: 'x', path: '..' }, location)).toContainEqual({
        action: 'external_directory',
        resource: join(root, '*'),
      });
      expect(globTool.permissions({ pattern: '**/*.ts' }, location)).toEqual([
        { action: 'glob', resource: '**/*.ts' },
      ]);
    });

    it('refuses to run on an outside path unless the loop allowed external_directory', async () => {
      await expect(readTool.run({ filePath: '../elsewhere/secret.txt' }, ctx)).rejects.toMatchObject({
        type: 'ExternalPath',
      });
      await expect(readTool.run({ filePath: 'escape/secret.txt' }, ctx)).rejects.toMatchObject({
        type: 'ExternalPath',
      });
      await expect(
        writeTool.run({ filePath: join(outside, 'new.txt'), content: 'x' }, ctx),
      ).rejects.toMatchObject({
        type: 'ExternalPath',
      });
      expect(existsSync(join(outside, 'new.txt'))).toBe(false);

      const allowed = await readTool.run(
        { filePath: '../elsewhere/secret.txt' },
        { ...ctx, allowExternal: true },
      );
      expect(allowed.output).toContain('outside content');
    });
  });

  describe('input validation', () => {
    it('names the missing, unknown or mistyped member', () => {
      expect(() => parseToolInput(readTool, { offset: 1 })).toThrow('read: "filePath" is required');
      expect(() => parseToolInput(readTool, { filePath: 'a', mode: 'x' })).toThrow(
        'read: unknown member "mode"',
      );
      expect(() => parseToolInput(readTool, { filePath: 'a', offset: 0 })).toThrow(
        'read: "offset" must be an integer of at least 1',
      );
      expect(() => parseToolInput(listTool, { ignore: [1] })).toThrow(
        'list: "ignore" must be an array of a string',
      );
      expect(() => parseToolInput(readTool, 'a.ts')).toThrow('read: input must be an object');
      expect(parseToolInput(readTool, { filePath: 'a.ts', limit: 5 })).toEqual({
        filePath: 'a.ts',
        limit: 5,
      });
    });

    it('runs a tool found by name with the raw input of the model', async () => {
      const tool = BUILTIN_TOOLS.find((t) => t.name === 'read')!;
      const result = await tool.run(parseToolInput(tool, { filePath: 'src/a.ts', limit: 1 }), ctx);
      expect(result.output).toContain('export const a = 1;');
    });

    it('offers every built-in tool to the model with a JSON schema', () => {
      expect(BUILTIN_TOOLS.map((t) => t.name)).toEqual([
        'read',
        'list',
        'glob',
        'grep',
        'write',
        'edit',
        'bash',
        'todowrite',
        'todoread',
        'webfetch',
        'task',
        'question',
      ]);
      for (const tool of BUILTIN_TOOLS) {
        expect(toolSpec(tool)).toEqual({
          name: tool.name,
          description: expect.any(String),
          inputSchema: expect.objectContaining({ type: 'object', additionalProperties: false }),
        });
      }
    });
  });

  describe('read', () => {
    it('returns numbered lines, with offset and limit', async () => {
      const all = await readTool.run({ filePath: 'src/a.ts' }, ctx);
      expect(all.output).toBe('     1\texport const a = 1;\n     2\texport const b = 2;');
      const second = await readTool.run({ filePath: 'src/a.ts', offset: 2, limit: 1 }, ctx);
      expect(second.output).toBe('     2\texport const b = 2;');
      const first = await readTool.run({ filePath: 'src/a.ts', limit: 1 }, ctx);
      expect(first.output).toContain('(1 more lines; read again with offset 2)');
    });

    it('fails clearly on a missing file, a directory, a binary file', async () => {
      await expect(readTool.run({ filePath: 'nope.ts' }, ctx)).rejects.toThrow('File not found: nope.ts');
      await expect(readTool.run({ filePath: 'src' }, ctx)).rejects.toThrow('src is a directory');
      await writeFile(join(location, 'blob.bin'), Buffer.from([1, 0, 2, 3]));
      await expect(readTool.run({ filePath: 'blob.bin' }, ctx)).rejects.toThrow('blob.bin is a binary file');
    });
  });

  describe('list, glob, grep', () => {
    it('list walks the tree, skipping node_modules, not following a link outside but saying so, honouring ignore', async () => {
      const result = await listTool.run({}, ctx);
      expect(result.output.split('\n')).toEqual([
        'README.md',
        'src/',
        'src/a.ts',
        'src/deep/',
        'src/deep/c.ts',
        OUTSIDE_NOTE,
      ]);
      const ignoring = await listTool.run({ path: 'src', ignore: ['deep/**', 'deep'] }, ctx);
      expect(ignoring.output.split('\n')).toEqual(['a.ts']);
    });

    it('glob matches paths, newest first', async () => {
      await utimes(join(location, 'src', 'a.ts'), new Date(2_000_000_000_000), new Date(2_000_000_000_000));
      const result = await globTool.run({ pattern: '**/*.ts' }, ctx);
      expect(result.output.split('\n')).toEqual(['src/a.ts', 'src/deep/c.ts', OUTSIDE_NOTE]);
      expect((await globTool.run({ pattern: '*.md' }, ctx)).output).toBe(`README.md\n${OUTSIDE_NOTE}`);
      expect((await globTool.run({ pattern: '*.py' }, ctx)).output).toBe(`No files found\n${OUTSIDE_NOTE}`);
    });

    it('grep finds lines by regex, filters by include, rejects a bad regex', async () => {
      const result = await grepTool.run({ pattern: 'need(le)' }, ctx);
      expect(result.output.split('\n')).toEqual([
        'README.md:2: needle in the readme',
        'src/deep/c.ts:1: const c = "needle";',
        OUTSIDE_NOTE,
      ]);
      const onlyTs = await grepTool.run({ pattern: 'needle', include: '*.ts' }, ctx);
      expect(onlyTs.output.split('\n')[0]).toBe('src/deep/c.ts:1: const c = "needle";');
      const inSrc = await grepTool.run({ pattern: '^export', path: 'src' }, ctx);
      expect(inSrc.output.split('\n')).toEqual([
        'a.ts:1: export const a = 1;',
        'a.ts:2: export const b = 2;',
      ]);
      await expect(grepTool.run({ pattern: '(' }, ctx)).rejects.toThrow('Invalid regular expression');
    });
  });

  it('grep stops a pattern that backtracks for ever without blocking the server, and can be interrupted', async () => {
    await writeFile(join(location, 'evil.txt'), `${'a'.repeat(40)}!\n`);
    const slow = createGrepTool({ timeoutMs: 300 });
    let ticks = 0;
    const ticker = setInterval(() => ticks++, 10);
    try {
      await expect(slow.run({ pattern: '^(a+)+$' }, ctx)).rejects.toThrow('grep stopped after 300 ms');
    } finally {
      clearInterval(ticker);
    }
    expect(ticks).toBeGreaterThan(5); // the event loop kept running while the worker spun

    const controller = new AbortController();
    const running = createGrepTool({ timeoutMs: 60_000 }).run(
      { pattern: '^(a+)+$' },
      { directory: location, signal: controller.signal },
    );
    setTimeout(() => controller.abort(), 50);
    await expect(running).rejects.toMatchObject({ type: 'Aborted' });
  });

  describe('write and edit', () => {
    it('write creates directories and files, and replaces content', async () => {
      const created = await writeTool.run({ filePath: 'new/dir/file.txt', content: 'hello' }, ctx);
      expect(created.metadata).toMatchObject({ created: true, bytes: 5 });
      expect(await readFile(join(location, 'new', 'dir', 'file.txt'), 'utf8')).toBe('hello');
      const replaced = await writeTool.run({ filePath: 'new/dir/file.txt', content: 'bye' }, ctx);
      expect(replaced.output).toContain('Replaced new/dir/file.txt');
      expect(await readFile(join(location, 'new', 'dir', 'file.txt'), 'utf8')).toBe('bye');
    });

    it('edit replaces one exact occurrence, literally', async () => {
      const result = await editTool.run(
        { filePath: 'src/a.ts', oldString: 'const b = 2', newString: 'const b = "$&"' },
        ctx,
      );
      expect(result.metadata).toMatchObject({ replacements: 1 });
      expect(await readFile(join(location, 'src', 'a.ts'), 'utf8')).toBe(
        'export const a = 1;\nexport const b = "$&";\n',
      );
    });

    it('edit fails clearly when the old string is missing or ambiguous, and changes nothing', async () => {
      const before = await readFile(join(location, 'src', 'a.ts'), 'utf8');
      await expect(
        editTool.run({ filePath: 'src/a.ts', oldString: 'const z', newString: 'const y' }, ctx),
      ).rejects.toThrow('oldString was not found in src/a.ts');
      await expect(
        editTool.run({ filePath: 'src/a.ts', oldString: 'export const', newString: 'const' }, ctx),
      ).rejects.toThrow('oldString occurs 2 times in src/a.ts');
      await expect(
        editTool.run({ filePath: 'src/a.ts', oldString: 'a', newString: 'a' }, ctx),
      ).rejects.toThrow('oldString and newString are the same');
      await expect(
        editTool.run({ filePath: 'missing.ts', oldString: 'a', newString: 'b' }, ctx),
      ).rejects.toThrow('File not found: missing.ts');
      expect(await readFile(join(location, 'src', 'a.ts'), 'utf8')).toBe(before);
    });

    it('edit with replaceAll replaces every occurrence; an empty oldString creates a file', async () => {
      const all = await editTool.run(
        { filePath: 'src/a.ts', oldString: 'export const', newString: 'const', replaceAll: true },
        ctx,
      );
      expect(all.metadata).toMatchObject({ replacements: 2 });
      expect(await readFile(join(location, 'src', 'a.ts'), 'utf8')).toBe('const a = 1;\nconst b = 2;\n');

      await editTool.run({ filePath: 'src/new.ts', oldString: '', newString: 'fresh' }, ctx);
      expect(await readFile(join(location, 'src', 'new.ts'), 'utf8')).toBe('fresh');
      await expect(
        editTool.run({ filePath: 'src/a.ts', oldString: '', newString: 'x' }, ctx),
      ).rejects.toThrow('already has content');
    });
  });

  describe('bash', () => {
    const bash = createBashTool({ maxOutputBytes: 200, killGraceMs: 200 });

    it('runs in the location directory and reports the exit code', async () => {
      const ok = await bash.run({ command: 'pwd && echo to-stderr >&2', description: 'where am I' }, ctx);
      expect(ok.output).toContain(location);
      expect(ok.output).toContain('to-stderr');
      expect(ok.metadata).toMatchObject({
        exit: 0,
        timedOut: false,
        truncated: false,
        description: 'where am I',
      });

      const failed = await bash.run({ command: 'echo oops; exit 3' }, ctx);
      expect(failed.output).toBe('oops\n\n[exit code 3]');
      expect(failed.metadata).toMatchObject({ exit: 3 });
    });

    it('does not pass server settings to the command', async () => {
      process.env.OUTPOST_TEST_SECRET = 'do-not-leak';
      try {
        const result = await bash.run({ command: 'echo "[$OUTPOST_TEST_SECRET]"' }, ctx);
        expect(result.output).toBe('[]\n');
      } finally {
        delete process.env.OUTPOST_TEST_SECRET;
      }
    });

    it('caps the output, keeping its start and end', async () => {
      const result = await bash.run(
        { command: 'echo START; for i in $(seq 1 500); do echo line-$i; done; echo END' },
        ctx,
      );
      expect(result.metadata).toMatchObject({ truncated: true, exit: 0 });
      expect(result.output.startsWith('START\n')).toBe(true);
      expect(result.output).toMatch(/bytes of output omitted/);
      expect(result.output.trimEnd().endsWith('END')).toBe(true);
      expect(result.output.length).toBeLessThan(400);
    });

    it('kills a command that runs past its time-out, with its children', async () => {
      const marker = join(location, 'late.txt');
      const result = await bash.run(
        { command: `echo started; sleep 30; touch ${marker}`, timeout: 300 },
        ctx,
      );
      expect(result.metadata).toMatchObject({ timedOut: true });
      expect(result.output).toContain('started');
      expect(result.output).toContain('[timed out after 300 ms; the command was killed]');
      expect(existsSync(marker)).toBe(false);
    });

    it('kills the command when the call is interrupted', async () => {
      const controller = new AbortController();
      const marker = join(location, 'started.txt');
      const running = bash.run(
        { command: `touch ${marker}; sleep 30` },
        { directory: location, signal: controller.signal },
      );
      while (!existsSync(marker)) await new Promise((resolve) => setImmediate(resolve));
      controller.abort();
      await expect(running).rejects.toMatchObject({ type: 'Aborted' });

      const already = new AbortController();
      already.abort();
      await expect(
        bash.run({ command: 'echo never' }, { directory: location, signal: already.signal }),
      ).rejects.toMatchObject({
        type: 'Aborted',
      });
    });
  });
});
