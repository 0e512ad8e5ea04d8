import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ascendingId } from '../../../src/common/ids';
import { V1TuiService } from '../../../src/modules/opencode-v1/v1-tui.service';
import { eventually } from '../../helpers/eventually';
import { openSse } from '../../helpers/sse';
import { basic, TestApp } from '../../helpers/test-app';
import { ScriptedModelServer } from '../../helpers/scripted-model-server';
import { api, EventLog, outline, scriptedProject, startScripted, stopScripted } from '../../helpers/prompt';
import { projectDir } from '../../helpers/project-dir';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** A git project with one commit. */
function gitProject(server: ScriptedModelServer): string {
  const project = scriptedProject(server, { 'README.md': '# demo\n' });
  const git = (...args: string[]) => execFileSync('git', args, { cwd: project });
  git('init', '-q');
  git('add', '.');
  git('-c', 'user.email=t@example.com', '-c', 'user.name=t', 'commit', '-qm', 'first');
  return project;
}

describe('v1 routes: the TUI control queue, git worktrees, and the rest opencode answers', () => {
  let t: TestApp;
  let server: ScriptedModelServer;
  let log: EventLog;
  const auth = basic();

  beforeAll(async () => ({ t, server, log } = await startScripted()));
  afterAll(() => stopScripted({ t, server }));

  const at = (path: string, directory: string) =>
    `${path}${path.includes('?') ? '&' : '?'}directory=${encodeURIComponent(directory)}`;
  const post = (path: string, directory: string, body?: Json) =>
    t.http.post(at(path, directory)).set('authorization', auth).send(body);

  it("pushes an editor's prompt, commands and toasts to the attached TUI's stream and control queue", async () => {
    const project = gitProject(server);
    const stream = await openSse(`${t.url}${at('/event', project)}`, { authorization: auth });
    try {
      expect((await post('/tui/append-prompt', project, { text: 'explain @README.md' })).body).toBe(true);
      expect((await post('/tui/submit-prompt', project)).body).toBe(true);
      expect((await post('/tui/execute-command', project, { command: 'session_new' })).body).toBe(true);
      const toast = { title: 'Build', message: 'done', variant: 'success' };
      expect((await post('/tui/show-toast', project, toast)).body).toBe(true);
      const published = { type: 'tui.prompt.append', properties: { text: ' more' } };
      expect((await post('/tui/publish', project, published)).body).toBe(true);

      const tui = (events: Json[]) => events.filter((e) => String(e.type).startsWith('tui.'));
      const seen = await stream.until((events) => tui(events).length >= 5);
      expect(tui(seen).map((e) => [e.type, (e as Json).properties])).toEqual([
        ['tui.prompt.append', { text: 'explain @README.md' }],
        ['tui.command.execute', { command: 'prompt.submit' }],
        ['tui.command.execute', { command: 'session.new' }],
        ['tui.toast.show', toast],
        ['tui.prompt.append', { text: ' more' }],
      ]);
    } finally {
      stream.close();
    }

    // The same requests wait in the control queue for a TUI that reads it, oldest first.
    const next = await t.http.get('/tui/control/next').set('authorization', auth);
    expect(next.body).toEqual({ path: '/tui/append-prompt', body: { text: 'explain @README.md' } });
    // A reader waits for the next request when none is queued.
    for (let i = 0; i < 4; i++) await t.http.get('/tui/control/next').set('authorization', auth);
    const waiting = t.http
      .get('/tui/control/next')
      .set('authorization', auth)
      .then((r) => r.body);
    // The reader's request has arrived and waits (no fixed pause: its wait is seen in the service).
    const tui = t.app.get(V1TuiService) as unknown as { waiting: unknown[] };
    await eventually(
      () => tui.waiting.length,
      (count) => count === 1,
    );
    await post('/tui/open-models', project);
    expect(await waiting).toEqual({ path: '/tui/open-models', body: {} });
    expect((await post('/tui/control/response', project, { ok: true })).body).toBe(true);
  });

  it('refuses a bad TUI request with a 400 naming the field, and an unknown session with a 404', async () => {
    const project = gitProject(server);
    const toast = await post('/tui/show-toast', project, { message: 'x', variant: 'loud' });
    expect(toast.status).toBe(400);
    expect(JSON.stringify(toast.body)).toContain('variant');
    const publish = await post('/tui/publish', project, {
      type: 'tui.prompt.append',
      properties: { text: 1 },
    });
    expect(publish.status).toBe(400);
    expect(JSON.stringify(publish.body)).toContain('properties.text');
    const select = await post('/tui/select-session', project, { sessionID: ascendingId('ses') });
    expect(select.status).toBe(404);
    expect((await post('/tui/select-session', project, { sessionID: 'nope' })).status).toBe(400);
    expect((await t.http.post('/tui/open-help')).status).toBe(401);
  });

  it('makes, lists, resets and removes worktrees with git worktree', async () => {
    const project = gitProject(server);
    const created = await post('/experimental/worktree', project, { name: 'feature-a' });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ name: 'feature-a', branch: 'opencode/feature-a' });
    const directory = created.body.directory as string;
    expect(readFileSync(join(directory, 'README.md'), 'utf8')).toBe('# demo\n');
    const listed = await t.http.get(at('/experimental/worktree', project)).set('authorization', auth);
    expect(listed.body).toEqual([directory]);
    const branches = execFileSync('git', ['branch', '--list', 'opencode/*'], {
      cwd: project,
      encoding: 'utf8',
    });
    expect(branches).toContain('opencode/feature-a');

    writeFileSync(join(directory, 'README.md'), 'changed\n');
    writeFileSync(join(directory, 'scratch.txt'), 'scratch\n');
    expect((await post('/experimental/worktree/reset', project, { directory })).body).toBe(true);
    expect(readFileSync(join(directory, 'README.md'), 'utf8')).toBe('# demo\n');
    expect(existsSync(join(directory, 'scratch.txt'))).toBe(false);

    expect((await post('/experimental/worktree', project, { name: 'feature-a' })).status).toBe(400);
    expect((await post('/experimental/worktree', project, { name: '../escape' })).status).toBe(400);
    const foreign = await t.http
      .delete(at('/experimental/worktree', project))
      .set('authorization', auth)
      .send({ directory: project });
    expect(foreign.status).toBe(400);

    const removed = await t.http
      .delete(at('/experimental/worktree', project))
      .set('authorization', auth)
      .send({ directory });
    expect(removed.body).toBe(true);
    expect(existsSync(directory)).toBe(false);
    expect(execFileSync('git', ['branch', '--list', 'opencode/*'], { cwd: project, encoding: 'utf8' })).toBe(
      '',
    );
    const none = await t.http.get(at('/experimental/worktree', project)).set('authorization', auth);
    expect(none.body).toEqual([]);
  });

  it('answers the raw diff, git init, the shells, dispose, unshare, message delete and the session list', async () => {
    const project = gitProject(server);
    writeFileSync(join(project, 'README.md'), '# changed\n');
    const raw = await t.http.get(at('/vcs/diff/raw', project)).set('authorization', auth);
    expect(raw.status).toBe(200);
    expect(raw.text).toContain('+# changed');

    const plain = projectDir({ 'a.txt': 'a\n' });
    const init = await post('/project/git/init', plain);
    expect(init.status).toBe(200);
    expect(init.body).toMatchObject({ worktree: plain, vcs: 'git' });
    expect(existsSync(join(plain, '.git'))).toBe(true);

    const shells = await t.http.get('/pty/shells').set('authorization', auth);
    const listed = readFileSync('/etc/shells', 'utf8');
    expect(shells.body.length).toBeGreaterThan(0);
    for (const shell of shells.body as Json[]) {
      expect(listed).toContain(shell.path);
      expect(shell).toMatchObject({ name: expect.any(String), acceptable: expect.any(Boolean) });
    }
    expect((await t.http.delete('/pty/pty_missing').set('authorization', auth)).body).toBe(true);
    expect((await post('/instance/dispose', project)).body).toBe(true);

    const a = api(t);
    const sessionID = await a.createSession(project);
    for (const text of ['first', 'second']) {
      server.script({ text: `answer to ${text}` });
      await a.prompt(sessionID, { text });
      await log.idle(sessionID, log.events.length - 1);
    }
    const unshared = await t.http
      .delete(at(`/session/${sessionID}/share`, project))
      .set('authorization', auth);
    expect(unshared.body).toMatchObject({ id: sessionID });
    const first = (await a.messages(sessionID))[0];
    const mark = log.events.length;
    const deleted = await t.http
      .delete(at(`/session/${sessionID}/message/${first.id}`, project))
      .set('authorization', auth);
    expect(deleted.body).toBe(true);
    expect(outline(await a.messages(sessionID))).toEqual(['assistant', 'user:second', 'assistant']);
    expect(log.events.slice(mark).filter((e) => e.type === 'session.message.removed')).toHaveLength(1);
    const again = await t.http
      .delete(at(`/session/${sessionID}/message/${first.id}`, project))
      .set('authorization', auth);
    expect(again.status).toBe(404);

    // Outpost saves no permissions (always-answers stay on the session): forgetting one names the id.
    const saved = await t.http.delete('/api/permission/saved/per_x').set('authorization', auth);
    expect(saved.status).toBe(404);
    expect(saved.body).toMatchObject({ _tag: 'SavedPermissionNotFoundError' });
    expect((await t.http.delete('/api/permission/saved/per_x')).status).toBe(401);
    const pty = await t.http.delete('/api/pty/pty_x').set('authorization', auth);
    expect(pty.status).toBe(404);
    expect(pty.body).toMatchObject({ _tag: 'PtyNotFoundError' });

    const sessions = await t.http.get('/experimental/session').set('authorization', auth);
    expect((sessions.body as Json[]).some((s) => s.id === sessionID)).toBe(true);
  });
});
