import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { projectDir } from '../../helpers/project-dir';
import { ScriptedModelServer } from '../../helpers/scripted-model-server';
import { basic, TestApp } from '../../helpers/test-app';
import { api, EventLog, outline, providerConfig, startScripted, stopScripted } from '../../helpers/prompt';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

describe("Undo: snapshots of the location's files around each step; revert, unrevert, and a new prompt after a revert", () => {
  let t: TestApp;
  let server: ScriptedModelServer;
  let log: EventLog;

  beforeAll(async () => ({ t, server, log } = await startScripted()));
  afterAll(() => stopScripted({ t, server }));

  /** A project whose location is its `app` folder, with a file beside the location. */
  function setup() {
    const root = projectDir({
      'app/outpost.json': providerConfig(server),
      'app/greet.ts': 'export const greet = "hello";\n',
      'beside.txt': 'beside\n',
    });
    return { root, app: join(root, 'app') };
  }

  /** Scripts a turn that edits greet.ts, creates new.txt and changes a file outside the location. */
  function scriptChanges() {
    server.script(
      {
        toolCalls: [
          { name: 'edit', input: { filePath: 'greet.ts', oldString: '"hello"', newString: '"hi"' } },
          { name: 'write', input: { filePath: 'new.txt', content: 'created\n' } },
          { name: 'bash', input: { command: 'echo changed > ../beside.txt' } },
        ],
      },
      { text: 'Changed.' },
    );
  }

  const v1 = (path: string, directory: string, body: Record<string, unknown> = {}) =>
    t.http
      .post(`${path}?directory=${encodeURIComponent(directory)}`)
      .set('authorization', basic())
      .send(body);

  it('v1 revert puts the files back and hides the turn, unrevert brings it back; files outside stay as they are', async () => {
    const { root, app } = setup();
    const a = api(t);
    const sessionID = await a.createSession(app);
    scriptChanges();
    await a.prompt(sessionID, { text: 'change things' });
    await log.idle(sessionID, log.events.length - 1);
    expect(readFileSync(join(app, 'greet.ts'), 'utf8')).toBe('export const greet = "hi";\n');
    expect(readFileSync(join(app, 'new.txt'), 'utf8')).toBe('created\n');
    const user = (await a.messages(sessionID))[0];

    const reverted = await v1(`/session/${sessionID}/revert`, app, { messageID: user.id });
    expect(reverted.status).toBe(200);
    expect(reverted.body.revert).toMatchObject({ messageID: user.id, snapshot: expect.any(String) });
    expect(readFileSync(join(app, 'greet.ts'), 'utf8')).toBe('export const greet = "hello";\n');
    expect(existsSync(join(app, 'new.txt'))).toBe(false);
    expect(readFileSync(join(root, 'beside.txt'), 'utf8')).toBe('changed\n');
    expect((await a.session(sessionID)).revert).toMatchObject({ messageID: user.id });

    const unreverted = await v1(`/session/${sessionID}/unrevert`, app);
    expect(unreverted.status).toBe(200);
    expect(unreverted.body.revert).toBeUndefined();
    expect(readFileSync(join(app, 'greet.ts'), 'utf8')).toBe('export const greet = "hi";\n');
    expect(readFileSync(join(app, 'new.txt'), 'utf8')).toBe('created\n');
    expect(outline(await a.messages(sessionID))).toEqual(['user:change things', 'assistant', 'assistant']);
  });

  it('a new prompt after a revert drops the reverted messages for good; the model never sees them', async () => {
    const { app } = setup();
    const a = api(t);
    const sessionID = await a.createSession(app);
    scriptChanges();
    await a.prompt(sessionID, { text: 'change things' });
    await log.idle(sessionID, log.events.length - 1);
    const user = (await a.messages(sessionID))[0];
    expect((await v1(`/session/${sessionID}/revert`, app, { messageID: user.id })).status).toBe(200);

    server.script({ text: 'Fresh start.' });
    const mark = log.events.length;
    await a.prompt(sessionID, { text: 'something else' });
    await log.idle(sessionID, mark);
    const sent = JSON.stringify(server.requests.at(-1)!.body.messages);
    expect(sent).toContain('something else');
    expect(sent).not.toContain('change things');
    expect(outline(await a.messages(sessionID))).toEqual(['user:something else', 'assistant']);
    expect((await a.session(sessionID)).revert).toBeUndefined();
    expect(log.events.slice(mark).filter((e) => e.type === 'session.message.removed')).toHaveLength(3);
    expect(readFileSync(join(app, 'greet.ts'), 'utf8')).toBe('export const greet = "hello";\n');
  });

  it('v2 revert.stage, revert.clear and revert.commit do the same', async () => {
    const { app } = setup();
    const a = api(t);
    const sessionID = await a.createSession(app);
    scriptChanges();
    await a.prompt(sessionID, { text: 'change things' });
    await log.idle(sessionID, log.events.length - 1);
    const [user, step] = await a.messages(sessionID);
    expect(step.snapshot).toEqual({ start: expect.any(String), end: expect.any(String) });

    const staged = await a.post(`/api/session/${sessionID}/revert/stage`, { messageID: step.id });
    expect(staged.status).toBe(200);
    expect(staged.body.data).toMatchObject({ messageID: step.id });
    expect(existsSync(join(app, 'new.txt'))).toBe(false);
    expect((await a.post(`/api/session/${sessionID}/revert/clear`)).status).toBe(204);
    expect(existsSync(join(app, 'new.txt'))).toBe(true);

    await a.post(`/api/session/${sessionID}/revert/stage`, { messageID: step.id });
    expect((await a.post(`/api/session/${sessionID}/revert/commit`)).status).toBe(204);
    expect((await a.messages(sessionID)).map((m: Json) => m.id)).toEqual([user.id]);
    expect(readFileSync(join(app, 'greet.ts'), 'utf8')).toBe('export const greet = "hello";\n');

    const missing = await a.post(`/api/session/${sessionID}/revert/stage`, {
      messageID: `${step.id.slice(0, -4)}zzzz`,
    });
    expect(missing.status).toBe(404);
    const bad = await a.post(`/api/session/${sessionID}/revert/stage`, { messageID: 'nope' });
    expect(bad.status).toBe(400);
  });
});
