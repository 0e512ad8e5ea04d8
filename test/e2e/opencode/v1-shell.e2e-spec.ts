import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { openSse } from '../../helpers/sse';
import { basic, TestApp } from '../../helpers/test-app';
import { ScriptedModelServer } from '../../helpers/scripted-model-server';
import { api, EventLog, scriptedProject, startScripted, stopScripted } from '../../helpers/prompt';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

describe("v1 POST /session/{id}/shell: the TUI's !cmd runs in the location and the model sees it", () => {
  let t: TestApp;
  let server: ScriptedModelServer;
  let log: EventLog;
  const auth = basic();

  beforeAll(async () => ({ t, server, log } = await startScripted()));
  afterAll(() => stopScripted({ t, server }));

  const shell = (sessionID: string, directory: string, body: Record<string, unknown>) =>
    t.http
      .post(`/session/${sessionID}/shell?directory=${encodeURIComponent(directory)}`)
      .set('authorization', auth)
      .send(body);

  it('runs the command, answers with a bash tool part carrying the output, and the next prompt shows it to the model', async () => {
    const project = scriptedProject(server, { 'notes.txt': 'remember the milk\n' });
    const a = api(t);
    const sessionID = await a.createSession(project);
    const stream = await openSse(`${t.url}/event?directory=${encodeURIComponent(project)}`, {
      authorization: auth,
    });
    try {
      const res = await shell(sessionID, project, { agent: 'build', command: 'cat notes.txt && pwd' });
      expect(res.status).toBe(200);
      expect(res.body.info).toMatchObject({ role: 'assistant', sessionID, agent: 'build', modelID: 'small' });
      expect(res.body.parts).toEqual([
        expect.objectContaining({
          type: 'tool',
          tool: 'bash',
          state: expect.objectContaining({
            status: 'completed',
            input: { command: 'cat notes.txt && pwd' },
            output: `remember the milk\n${project}\n`,
            metadata: expect.objectContaining({ output: `remember the milk\n${project}\n`, exit: 0 }),
          }),
        }),
      ]);
      // The TUI learns of it from the event stream, and the transcript lists it.
      await stream.until((events) =>
        events.some((e) => (e as unknown as Json).properties?.part?.tool === 'bash'),
      );
      const messages = (
        await t.http
          .get(`/session/${sessionID}/message?directory=${encodeURIComponent(project)}`)
          .set('authorization', auth)
      ).body as Json[];
      expect(messages.map((m) => m.info.role)).toEqual(['user', 'assistant']);
      expect(messages[1].parts[0].state.metadata.output).toContain('remember the milk');
      const one = await t.http
        .get(`/session/${sessionID}/message/${res.body.info.id}?directory=${encodeURIComponent(project)}`)
        .set('authorization', auth);
      expect(one.status).toBe(200);
      expect(one.body.info.parentID).toBe(messages[0].info.id);
    } finally {
      stream.close();
    }

    server.script({ text: 'You ran cat.' });
    await a.prompt(sessionID, { text: 'What did I just run?' });
    await log.idle(sessionID);
    const sent = JSON.stringify(server.requests.at(-1)!.body.messages);
    expect(sent).toContain('The user ran `cat notes.txt && pwd`');
    expect(sent).toContain('remember the milk');
  });

  it("refuses a command the session's rules deny, and a request without a command", async () => {
    const project = scriptedProject(server, { 'keep.txt': 'keep\n' });
    const a = api(t);
    const sessionID = await a.createSession(project, {
      permissions: [{ action: 'bash', resource: 'rm *', effect: 'deny' }],
    });
    const denied = await shell(sessionID, project, { agent: 'build', command: 'rm keep.txt' });
    expect(denied.status).toBe(403);
    expect(JSON.stringify(denied.body)).toContain('rm keep.txt');
    expect(existsSync(join(project, 'keep.txt'))).toBe(true);

    const missing = await shell(sessionID, project, { agent: 'build' });
    expect(missing.status).toBe(400);
    expect(JSON.stringify(missing.body)).toContain('command');
    const unknown = await shell(`${sessionID.slice(0, -4)}zzzz`, project, { agent: 'build', command: 'ls' });
    expect(unknown.status).toBe(404);
    expect(await a.messages(sessionID)).toEqual([]);
  });

  it("takes the SDK's optional messageID, as a prompt does; one that is no message id is refused", async () => {
    const project = scriptedProject(server);
    const sessionID = await api(t).createSession(project);
    const ran = await shell(sessionID, project, {
      agent: 'build',
      command: 'echo with-id',
      messageID: 'msg_0123456789abcdefABCDEFGHIJ',
    });
    expect(ran.status).toBe(200);
    expect(JSON.stringify(ran.body)).toContain('with-id');
    const bad = await shell(sessionID, project, { agent: 'build', command: 'echo no', messageID: 'nope' });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toContain('messageID');
  });
});
