import { execFile, execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { CapturingLogger } from '../../helpers/capturing-logger';
import { TEST_PASSWORD, TestApp } from '../../helpers/test-app';
import { ScriptedModelServer } from '../../helpers/scripted-model-server';
import { api, scriptedProject, startScripted, stopScripted } from '../../helpers/prompt';

const run = promisify(execFile);
type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

describe('v1 routes the released SDK calls that answered 404: vcs, find, project, log, tool ids, pty, fork', () => {
  let t: TestApp;
  let server: ScriptedModelServer;

  beforeAll(async () => ({ t, server } = await startScripted()));
  afterAll(() => stopScripted({ t, server }));

  it('answers each as opencode does, from git and the location', async () => {
    const project = scriptedProject(server, {
      'src/greet.ts': 'export const greet = () => "hello";\n',
      'README.md': '# demo\n',
    });
    const git = (...args: string[]) => execFileSync('git', args, { cwd: project });
    git('init', '-q');
    git('add', '.');
    git('-c', 'user.email=t@example.com', '-c', 'user.name=t', 'commit', '-qm', 'first');
    writeFileSync(join(project, 'src/greet.ts'), 'export const greet = () => "hi";\nexport const x = 1;\n');
    writeFileSync(join(project, 'NEW.md'), 'new\nfile\n');
    const sessionID = await api(t).createSession(project, { title: 'Original' });

    const { stdout } = await run(
      process.execPath,
      [join(__dirname, 'sdk-v1-routes-client.mjs'), t.url, TEST_PASSWORD, project, sessionID],
      { cwd: join(__dirname, '../../..') },
    );
    const out = JSON.parse(stdout) as Record<string, Json>;

    expect(out.projectList).toMatchObject({ status: 200, data: [{ worktree: project, vcs: 'git' }] });
    expect(out.fileStatus.data).toEqual([
      { path: 'NEW.md', added: 2, removed: 0, status: 'added' },
      { path: 'src/greet.ts', added: 2, removed: 1, status: 'modified' },
    ]);
    expect(out.vcsStatus.data).toEqual([
      { file: 'NEW.md', additions: 2, deletions: 0, status: 'added' },
      { file: 'src/greet.ts', additions: 2, deletions: 1, status: 'modified' },
    ]);
    expect(out.vcsDiff.data[1]).toMatchObject({ file: 'src/greet.ts', status: 'modified' });
    expect(out.vcsDiff.data[1].patch).toContain('+export const greet = () => "hi";');
    expect(out.findText.data).toEqual([
      {
        path: { text: 'src/greet.ts' },
        lines: { text: 'export const greet = () => "hi";\n' },
        line_number: 1,
        absolute_offset: 0,
        submatches: [{ match: { text: 'greet' }, start: 13, end: 18 }],
      },
    ]);
    expect(out.findSymbols).toMatchObject({ status: 200, data: [] });
    expect(out.appLog).toMatchObject({ status: 200, data: true });
    expect(out.toolIds.data).toEqual(expect.arrayContaining(['bash', 'read', 'edit', 'grep', 'websearch']));
    expect(out.ptyList).toMatchObject({ status: 200, data: [] });
    expect(out.ptyCreate.status).toBe(501);
    expect(JSON.stringify(out.ptyCreate.error)).toContain('pseudo-terminals');
    expect(out.fork).toMatchObject({ status: 200, data: { parentID: sessionID, directory: project } });
    expect(out.globalConfig).toMatchObject({ status: 200, data: { provider: expect.any(Object) } });
  });

  it('writes app.log lines to the server log at the named level, and refuses a bad level naming it', async () => {
    const logger = new CapturingLogger();
    t.app.useLogger(logger);
    const res = await t.http
      .post('/log')
      .set('authorization', `Basic ${Buffer.from(`opencode:${TEST_PASSWORD}`).toString('base64')}`)
      .send({ service: 'tui', level: 'error', message: 'the client broke' });
    expect(res.status).toBe(200);
    // CapturingLogger keeps the error-level lines.
    expect(logger.lines.some((line) => line.includes('the client broke') && line.includes('tui'))).toBe(true);
    const bad = await t.http
      .post('/log')
      .set('authorization', `Basic ${Buffer.from(`opencode:${TEST_PASSWORD}`).toString('base64')}`)
      .send({ service: 'tui', level: 'loud', message: 'x' });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toContain('level');
  });
});
