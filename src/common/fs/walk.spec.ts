import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readEntries, walk, WalkEntry } from './walk';

describe('walk: one file walk, links whose real target is outside the boundary reported as outside', () => {
  let root: string;
  let location: string;
  let outside: string;

  beforeEach(() => {
    root = realpathSync(mkdtempSync(join(tmpdir(), 'walk-')));
    location = join(root, 'project');
    outside = join(root, 'elsewhere');
    mkdirSync(join(location, 'src', 'deep'), { recursive: true });
    mkdirSync(join(location, 'node_modules', 'dep'), { recursive: true });
    mkdirSync(join(outside, 'dir'), { recursive: true });
    writeFileSync(join(location, 'README.md'), 'readme\n');
    writeFileSync(join(location, 'src', 'a.ts'), 'a\n');
    writeFileSync(join(location, 'src', 'deep', 'c.ts'), 'c\n');
    writeFileSync(join(location, 'node_modules', 'dep', 'index.js'), 'dep\n');
    writeFileSync(join(outside, 'secret.txt'), 'secret\n');
    writeFileSync(join(outside, 'dir', 'inner.txt'), 'inner\n');
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  const all = async (start: string, boundary?: string): Promise<WalkEntry[]> => {
    const entries: WalkEntry[] = [];
    for await (const entry of walk(start, new AbortController().signal, boundary ? { boundary } : {}))
      entries.push(entry);
    return entries;
  };
  const find = (entries: WalkEntry[], path: string) => entries.find((entry) => entry.path === path);

  it('walks depth-first in code-point order, skipping ignored directories', async () => {
    expect((await all(location)).map((entry) => entry.path)).toEqual([
      'README.md',
      'src',
      'src/a.ts',
      'src/deep',
      'src/deep/c.ts',
    ]);
  });

  it('a link to a file outside is outside, by absolute or relative target, or through a chain of links', async () => {
    symlinkSync(join(outside, 'secret.txt'), join(location, 'absolute.txt'));
    symlinkSync('../elsewhere/secret.txt', join(location, 'relative.txt'));
    symlinkSync('absolute.txt', join(location, 'chained.txt'));
    const entries = await all(location);
    for (const path of ['absolute.txt', 'relative.txt', 'chained.txt']) {
      expect(find(entries, path)).toMatchObject({
        directory: false,
        link: true,
        outside: true,
        real: join(outside, 'secret.txt'),
      });
    }
  });

  it('a link to a directory outside is outside and never descended into', async () => {
    symlinkSync(join(outside, 'dir'), join(location, 'src', 'escape'));
    const entries = await all(location);
    expect(find(entries, 'src/escape')).toMatchObject({ directory: true, link: true, outside: true });
    expect(entries.filter((entry) => entry.path.startsWith('src/escape/'))).toEqual([]);
  });

  it('a link inside leading inside stays inside; a link to a directory is listed but not walked twice', async () => {
    symlinkSync('README.md', join(location, 'readme-link.md'));
    symlinkSync(join(location, 'src', 'deep'), join(location, 'deep-link'));
    symlinkSync('..', join(location, 'src', 'up'));
    const entries = await all(location);
    expect(find(entries, 'readme-link.md')).toMatchObject({
      directory: false,
      link: true,
      outside: false,
      real: join(location, 'README.md'),
    });
    expect(find(entries, 'deep-link')).toMatchObject({ directory: true, link: true, outside: false });
    expect(find(entries, 'src/up')).toMatchObject({ directory: true, link: true, outside: false });
    expect(entries.filter((entry) => entry.path.startsWith('deep-link/'))).toEqual([]);
    expect(entries.filter((entry) => entry.path.startsWith('src/up/'))).toEqual([]);
  });

  it('a link out of the directory walked but inside the boundary is inside', async () => {
    symlinkSync('../README.md', join(location, 'src', 'readme.md'));
    expect(find(await all(join(location, 'src')), 'readme.md')).toMatchObject({ outside: true });
    expect(find(await all(join(location, 'src'), location), 'readme.md')).toMatchObject({
      outside: false,
      real: join(location, 'README.md'),
    });
  });

  it('a walk started through a link to the location judges by its real path', async () => {
    symlinkSync(location, join(root, 'via-link'));
    symlinkSync('README.md', join(location, 'readme-link.md'));
    const entries = await all(join(root, 'via-link'));
    expect(find(entries, 'readme-link.md')).toMatchObject({ outside: false });
    expect(find(entries, 'src/a.ts')).toMatchObject({ real: join(location, 'src', 'a.ts'), outside: false });
  });

  it('links leading nowhere are left out', async () => {
    symlinkSync(join(outside, 'gone.txt'), join(location, 'dangling.txt'));
    symlinkSync('loop-b', join(location, 'loop-a'));
    symlinkSync('loop-a', join(location, 'loop-b'));
    const paths = (await all(location)).map((entry) => entry.path);
    expect(paths).not.toContain('dangling.txt');
    expect(paths).not.toContain('loop-a');
  });

  it('stops with the signal', async () => {
    const controller = new AbortController();
    controller.abort(new Error('stop'));
    const walking = walk(location, controller.signal);
    await expect(walking.next()).rejects.toThrow('stop');
  });

  it('readEntries gives one directory, links judged against the boundary', async () => {
    symlinkSync(join(outside, 'secret.txt'), join(location, 'secret.txt'));
    const entries = await readEntries(location, location);
    expect(entries.map((entry) => [entry.name, entry.directory, entry.outside])).toEqual([
      ['README.md', false, false],
      ['node_modules', true, false],
      ['secret.txt', false, true],
      ['src', true, false],
    ]);
  });
});
