import { SessionsService } from '@/modules/sessions/sessions.service';
import { ScriptedModelServer } from '../../helpers/scripted-model-server';
import { basic, TestApp } from '../../helpers/test-app';
import {
  Api,
  EventLog,
  FAST_RETRIES,
  scriptedProject,
  startScripted,
  stopScripted,
} from '../../helpers/prompt';

type Data = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** What a run keeps in memory between its steps (history, session, location) against what is stored. */
describe('session.prompt: what one step leaves to the next', () => {
  let t: TestApp;
  let server: ScriptedModelServer;
  let log: EventLog;
  let a: Api;

  beforeAll(async () => ({ t, server, log, a } = await startScripted({ env: FAST_RETRIES })));
  afterAll(() => stopScripted({ t, server }));

  it('sends at each step the history that a read of the transcript gives', async () => {
    const project = scriptedProject(server, { 'a.txt': 'first file\n', 'b.txt': 'second file\n' });
    const sessionID = await a.createSession(project);
    const mark = log.events.length;
    const base = server.requests.length;
    server.script(
      {
        reasoning: 'The files first.',
        text: 'Reading a.',
        toolCalls: [{ name: 'read', input: { filePath: 'a.txt' } }],
      },
      {
        toolCalls: [
          { name: 'read', input: { filePath: 'b.txt' } },
          { name: 'read', input: {} },
        ],
      },
      { text: 'Both read.' },
    );
    await a.prompt(sessionID, { text: 'read both files' });
    await log.idle(sessionID, mark);

    // A new run reads the history from the transcript; the last step of the first run built it step by step.
    const again = log.events.length;
    server.script({ text: 'Still here.' });
    await a.prompt(sessionID, { text: 'again' });
    await log.idle(sessionID, again);
    const requests = server.requests.slice(base).map((r) => r.body.messages as Data[]);
    expect(requests).toHaveLength(4);
    const [, , built, read] = requests;
    expect(read.slice(0, built.length)).toEqual(built);
    expect(read.slice(built.length)).toEqual([
      { role: 'assistant', content: 'Both read.' },
      { role: 'user', content: 'again' },
    ]);
    const results = built.filter((m) => m.role === 'tool').map((m) => String(m.content));
    expect(results).toHaveLength(3);
    expect(results[0]).toContain('first file');
    expect(results[1]).toContain('second file');
    expect(results[2]).toMatch(/filePath/);
  });

  it('applies a permission change made during a run from the next step', async () => {
    const project = scriptedProject(server);
    const sessionID = await a.createSession(project, {
      permissions: [{ action: 'bash', resource: '*', effect: 'ask' }],
    });
    const mark = log.events.length;
    const base = server.requests.length;
    server.script({ toolCalls: [{ name: 'bash', input: { command: 'echo hi' } }] }, { text: 'done' });
    await a.prompt(sessionID, { text: 'go' });
    const request = await log.asked(sessionID, mark);
    const patched = await t.http
      .patch(`/api/session/${sessionID}`)
      .set('authorization', basic())
      .send({
        permissions: [
          { action: 'bash', resource: '*', effect: 'ask' },
          { action: 'read', resource: '*', effect: 'deny' },
        ],
      });
    expect(patched.status).toBe(204);
    await a.reply(sessionID, request.data.id, 'once');
    await log.idle(sessionID, mark);
    const offered = server.requests
      .slice(base)
      .map((r) => (r.body.tools as Data[]).map((tool) => tool.function.name));
    expect(offered[0]).toContain('read');
    expect(offered[1]).not.toContain('read');
    expect(offered[1]).toContain('bash');
  });

  it('records a tool that outlasts a moment as running while it runs', async () => {
    const project = scriptedProject(server);
    const sessionID = await a.createSession(project, {
      permissions: [{ action: 'bash', resource: '*', effect: 'ask' }],
    });
    const mark = log.events.length;
    server.script({ toolCalls: [{ name: 'bash', input: { command: 'echo waiting' } }] }, { text: 'done' });
    await a.prompt(sessionID, { text: 'go' });
    const request = await log.asked(sessionID, mark);
    // The permission request keeps the tool running; its state reaches the transcript shortly after it starts.
    let part: Data | undefined;
    for (let attempt = 0; attempt < 200 && part?.state.status !== 'running'; attempt++) {
      if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, 25));
      part = (await a.messages(sessionID))[1]?.content[0];
    }
    expect(part).toMatchObject({
      type: 'tool',
      name: 'bash',
      state: { status: 'running', input: { command: 'echo waiting' } },
    });
    await a.reply(sessionID, request.data.id, 'once');
    await log.idle(sessionID, mark);
    const [, first] = await a.messages(sessionID);
    expect(first.content[0].state).toMatchObject({ status: 'completed' });
  });

  it('leaves a closed message alone when a write of its streaming state lands late', async () => {
    const sessions = t.app.get(SessionsService);
    const sessionID = await a.createSession(scriptedProject(server));
    const streaming = {
      id: 'msg_late0000000000000001',
      type: 'assistant' as const,
      agent: 'build',
      model: { providerID: 'scripted', id: 'small' },
      content: [{ type: 'text' as const, text: 'partial' }],
      time: { created: 1 },
    };
    await sessions.appendMessage(sessionID, streaming);
    const closed = {
      ...streaming,
      content: [{ type: 'text' as const, text: 'whole answer' }],
      finish: 'stop' as const,
      time: { created: 1, completed: 2 },
    };
    const tokens = { input: 10, output: 5, reasoning: 0, cache: { read: 0, write: 0 } };
    expect(await sessions.completeStep(sessionID, closed, tokens, 100)).toBeDefined();
    expect(await sessions.updateMessage(sessionID, streaming)).toBe(false);
    const [message] = await a.messages(sessionID);
    expect(message).toMatchObject({ content: [{ text: 'whole answer' }], time: { completed: 2 } });
  });
});
