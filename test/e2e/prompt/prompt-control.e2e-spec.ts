import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { projectDir } from '../../helpers/project-dir';
import { ScriptedModelServer } from '../../helpers/scripted-model-server';
import { basic, TestApp } from '../../helpers/test-app';
import {
  Api,
  EventLog,
  outline,
  FAST_RETRIES,
  providerConfig,
  scriptedProject,
  startScripted,
  stopScripted,
} from '../../helpers/prompt';

type Data = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

describe('session.prompt: delivery, interrupts, permissions, retries and switches', () => {
  let t: TestApp;
  let server: ScriptedModelServer;
  let log: EventLog;
  let a: Api;

  beforeAll(async () => ({ t, server, log, a } = await startScripted({ env: FAST_RETRIES })));
  afterAll(() => stopScripted({ t, server }));
  const userText = (body: Data) =>
    (body.messages as Array<{ role: string; content: unknown }>)
      .filter((m) => m.role === 'user')
      .map((m) => (typeof m.content === 'string' ? m.content : JSON.stringify(m.content)));

  it('delivers a steering prompt at the next step boundary and a queued one after the run', async () => {
    const project = scriptedProject(server);
    const sessionID = await a.createSession(project, {
      permissions: [{ action: 'bash', resource: '*', effect: 'ask' }],
    });
    const mark = log.events.length;
    const base = server.requests.length;
    server.script(
      { toolCalls: [{ name: 'bash', input: { command: 'echo first' } }] },
      { text: 'answer after steer' },
      { text: 'answer after queue' },
    );
    await a.prompt(sessionID, { text: 'first' });
    const request = await log.asked(sessionID, mark);
    expect((await a.prompt(sessionID, { text: 'queued', delivery: 'queue' })).status).toBe(200);
    expect((await a.prompt(sessionID, { text: 'steered' })).status).toBe(200);
    await a.reply(sessionID, request.data.id, 'once');
    await log.idle(sessionID, mark);

    const messages = await a.messages(sessionID);
    expect(outline(messages)).toEqual([
      'user:first',
      'assistant',
      'user:steered',
      'assistant',
      'user:queued',
      'assistant',
    ]);
    expect(messages[3].content[0].text).toBe('answer after steer');
    expect(messages[5].content[0].text).toBe('answer after queue');
    const [, second, third] = server.requests.slice(base).map((r) => userText(r.body));
    expect(second).toEqual(['first', 'steered']);
    expect(third).toEqual(['first', 'steered', 'queued']);
    // One drain took all three: one execution, one idle.
    expect(log.of(sessionID, ['session.execution.started', 'session.idle']).map((e) => e.type)).toEqual([
      'session.execution.started',
      'session.idle',
    ]);
  });

  it('interrupts a streaming step and a running command at once, closing the message as interrupted', async () => {
    const project = scriptedProject(server);
    const sessionID = await a.createSession(project);
    let mark = log.events.length;
    server.script({ text: ['thinking about it'], hold: true });
    await a.prompt(sessionID, { text: 'take your time' });
    await log.next<Data>('session.message.part.delta', (d) => d.sessionID === sessionID, mark);
    expect((await a.get('/api/session/active')).body.data[sessionID]).toEqual({ type: 'running' });
    expect((await a.post(`/api/session/${sessionID}/interrupt`)).status).toBe(204);
    expect((await a.get('/api/session/active')).body.data).toEqual({});
    let messages = await a.messages(sessionID);
    expect(messages[1]).toMatchObject({
      type: 'assistant',
      error: { type: 'AbortedError' },
      content: [{ type: 'text', text: 'thinking about it' }],
      time: { completed: expect.any(Number) },
    });
    expect((await a.session(sessionID)).outcome).toBe('interrupted');
    expect(log.of(sessionID, ['session.execution.interrupted']).at(-1)!.data).toEqual({
      sessionID,
      reason: 'user',
    });

    mark = log.events.length;
    server.script({ toolCalls: [{ name: 'bash', input: { command: 'sleep 30 && touch done.txt' } }] });
    await a.prompt(sessionID, { text: 'run something slow' });
    await log.next<Data>(
      'session.message.updated',
      (d) => d.sessionID === sessionID && d.message.content[0]?.state?.status === 'running',
      mark,
    );
    expect((await a.post(`/api/session/${sessionID}/interrupt`)).status).toBe(204);
    messages = await a.messages(sessionID);
    expect(messages.at(-1)!.content[0]).toMatchObject({
      name: 'bash',
      state: { status: 'error', error: { type: 'AbortedError' } },
    });
    expect(existsSync(join(project, 'done.txt'))).toBe(false);
    // Interrupting an idle session is a no-op.
    expect((await a.post(`/api/session/${sessionID}/interrupt`)).status).toBe(204);
  });

  it('gives a denied call an error result the model sees, and does not offer tools denied outright', async () => {
    const project = scriptedProject(server, { 'keep.txt': 'keep me' });
    const sessionID = await a.createSession(project, {
      permissions: [
        { action: 'bash', resource: 'rm *', effect: 'deny' },
        { action: 'edit', resource: '*', effect: 'deny' },
      ],
    });
    const mark = log.events.length;
    const base = server.requests.length;
    server.script(
      { toolCalls: [{ name: 'bash', input: { command: 'rm keep.txt' } }] },
      { text: 'I may not delete it.' },
    );
    await a.prompt(sessionID, { text: 'delete keep.txt' });
    await log.idle(sessionID, mark);
    expect(readFileSync(join(project, 'keep.txt'), 'utf8')).toBe('keep me');
    const messages = await a.messages(sessionID);
    expect(messages[1].content[0]).toMatchObject({
      name: 'bash',
      state: { status: 'error', error: { type: 'PermissionDenied' } },
    });
    const [first, second] = server.requests.slice(base);
    const offered = first.body.tools.map((tool: Data) => tool.function.name);
    expect(offered).toContain('bash');
    expect(offered).not.toContain('edit');
    expect(offered).not.toContain('write');
    const toolResult = second.body.messages.find((m: Data) => m.role === 'tool');
    expect(JSON.stringify(toolResult.content)).toContain('Permission denied');
    expect(log.of(sessionID, ['permission.asked'])).toEqual([]);
  });

  it('asks external_directory for a path outside the location; a rejection is the result and ends the turn', async () => {
    const outside = projectDir({ 'secret.txt': 'outside the location' });
    const project = scriptedProject(server);
    // The built-in agents allow the temporary directory (where both test directories live): ask anyway.
    const sessionID = await a.createSession(project, {
      permissions: [{ action: 'external_directory', resource: '*', effect: 'ask' }],
    });
    const mark = log.events.length;
    const base = server.requests.length;
    server.script({ toolCalls: [{ name: 'read', input: { filePath: join(outside, 'secret.txt') } }] });
    await a.prompt(sessionID, { text: 'read the secret' });
    const request = await log.asked(sessionID, mark);
    expect(request.data).toMatchObject({ permission: 'external_directory' });
    expect(request.data.patterns[0]).toContain(outside);
    expect((await a.reply(sessionID, request.data.id, 'reject')).status).toBe(204);
    await log.idle(sessionID, mark);
    const messages = await a.messages(sessionID);
    expect(messages[1].content[0].state).toMatchObject({
      status: 'error',
      error: { type: 'PermissionRejected' },
    });
    // As in opencode, the person's "no" ends the turn: the model is not asked again.
    expect(server.requests.length).toBe(base + 1);
    expect(JSON.stringify(messages)).not.toContain('outside the location');
  });

  it('a rejection with a message is feedback: the model goes on with it', async () => {
    const project = scriptedProject(server, { '.env': 'SECRET=1' });
    const sessionID = await a.createSession(project);
    const mark = log.events.length;
    const base = server.requests.length;
    server.script(
      { toolCalls: [{ name: 'read', input: { filePath: join(project, '.env') } }] },
      { text: 'I will not read it.' },
    );
    await a.prompt(sessionID, { text: 'read .env' });
    const request = await log.asked(sessionID, mark);
    const replied = await a.post(`/api/session/${sessionID}/permission/${request.data.id}/reply`, {
      reply: 'reject',
      message: 'do not read secrets',
    });
    expect(replied.status).toBe(204);
    const idle = await log.idle(sessionID, mark);
    expect(idle.data.outcome).toBe('succeeded');
    expect(server.requests.length).toBe(base + 2);
    const toolResult = (server.requests[base + 1].body.messages as Data[]).find((m) => m.role === 'tool');
    expect(JSON.stringify(toolResult!.content)).toContain('do not read secrets');
    expect((await a.messages(sessionID)).at(-1)!.content[0].text).toBe('I will not read it.');
  });

  it('retries 429 and 5xx with the retry visible on the message, then fails the step with the error', async () => {
    const project = scriptedProject(server);
    const sessionID = await a.createSession(project);
    const mark = log.events.length;
    server.script(
      { error: { status: 429, message: 'slow down' } },
      { error: { status: 500, message: 'boom' } },
      { error: { status: 503, message: 'still down' } },
    );
    await a.prompt(sessionID, { text: 'hello?' });
    const retrying = await log.next<Data>(
      'session.message.updated',
      (d) => d.sessionID === sessionID && d.message.retry?.attempt === 1,
      mark,
    );
    expect(retrying.data.message.retry).toEqual({
      attempt: 1,
      at: expect.any(Number),
      error: expect.stringContaining('slow down'),
    });
    expect((await log.idle(sessionID, mark)).data.outcome).toBe('failed');
    const messages = await a.messages(sessionID);
    expect(messages[1]).toMatchObject({
      finish: 'error',
      error: { type: 'APIError', status: 503 },
      retry: { attempt: 2 },
      time: { completed: expect.any(Number) },
    });
    // The error names the provider, the address called, and where a person fixes it.
    expect(messages[1].error.message).toMatch(
      /still down \(provider "\w[\w-]*" at http:\/\/127\.0\.0\.1:\d+\/v1\/chat\/completions: check its base URL and key on the web app's Models page or in the location's opencode\.json\)$/,
    );
    expect((await a.session(sessionID)).outcome).toBe('failed');
    expect(log.of(sessionID, ['session.execution.failed'])[0].data).toMatchObject({
      error: { type: 'APIError' },
    });
  });

  it('applies a model switch made during a run from the next step', async () => {
    const project = scriptedProject(server);
    const sessionID = await a.createSession(project, {
      permissions: [{ action: 'bash', resource: '*', effect: 'ask' }],
    });
    const mark = log.events.length;
    const base = server.requests.length;
    server.script({ toolCalls: [{ name: 'bash', input: { command: 'echo hi' } }] }, { text: 'switched' });
    await a.prompt(sessionID, { text: 'go' });
    const request = await log.asked(sessionID, mark);
    const switched = await a.post(`/api/session/${sessionID}/model`, {
      model: { providerID: 'scripted', id: 'large' },
    });
    expect(switched.status).toBe(204);
    await a.reply(sessionID, request.data.id, 'once');
    await log.idle(sessionID, mark);
    expect(server.requests.slice(base).map((r) => r.body.model)).toEqual(['small', 'large']);
    const assistants = (await a.messages(sessionID)).filter((m) => m.type === 'assistant');
    expect(assistants.map((m) => m.model.id)).toEqual(['small', 'large']);
  });

  it('admits a prompt id once (409 after), the nested body form, and refuses unconfigured models', async () => {
    const project = scriptedProject(server);
    const sessionID = await a.createSession(project);
    const id = 'msg_client0000000000001';
    const mark = log.events.length;
    server.script({ text: 'hi' });
    const first = await a.prompt(sessionID, { id, prompt: { text: 'nested form' }, delivery: 'queue' });
    expect(first.status).toBe(200);
    expect(first.body.data).toMatchObject({ id, payload: { text: 'nested form' }, delivery: 'queue' });
    const again = await a.prompt(sessionID, { id, text: 'retry' });
    expect(again.status).toBe(409);
    expect(again.body).toEqual({
      _tag: 'ConflictError',
      message: `Prompt message ID conflicts with an existing durable record: ${id}`,
      resource: id,
    });
    await log.idle(sessionID, mark);
    // Still a conflict once the input became a message.
    expect((await a.prompt(sessionID, { id, text: 'retry' })).status).toBe(409);
    const messages = await a.messages(sessionID);
    expect(messages.filter((m) => m.type === 'user')).toEqual([
      expect.objectContaining({ id, text: 'nested form' }),
    ]);

    expect((await a.prompt(sessionID, {})).body).toMatchObject({
      _tag: 'InvalidRequestError',
      field: 'text',
    });
    expect((await a.prompt(sessionID, { text: 'x', delivery: 'later' })).status).toBe(400);
    expect((await a.prompt('ses_ffffffffffffffffAAAAAAAAAAAA', { text: 'x' })).status).toBe(404);
    await a.post(`/api/session/${sessionID}/model`, { model: { providerID: 'scripted', id: 'huge' } });
    const unknown = await a.prompt(sessionID, { text: 'x' });
    expect(unknown.status).toBe(400);
    expect(unknown.body).toMatchObject({
      _tag: 'ModelNotFoundError',
      providerID: 'scripted',
      modelID: 'huge',
    });
    expect(unknown.body.message).toContain('scripted/huge');
  });

  it('admits without running when resume is false; pages the transcript; a delete interrupts the drain', async () => {
    const project = scriptedProject(server);
    const sessionID = await a.createSession(project);
    expect((await a.prompt(sessionID, { text: 'later', resume: false })).status).toBe(200);
    expect((await a.get('/api/session/active')).body.data).toEqual({});
    expect(await a.messages(sessionID)).toEqual([]);

    let mark = log.events.length;
    server.script({ text: 'one' });
    await a.prompt(sessionID, { text: 'now' });
    await log.idle(sessionID, mark);
    const all = await a.messages(sessionID);
    expect(all.map((m) => m.type)).toEqual(['user', 'user', 'assistant']);
    const page1 = await a.get(`/api/session/${sessionID}/message?limit=2`);
    expect(page1.body.data.map((m: Data) => m.id)).toEqual(all.slice(0, 2).map((m) => m.id));
    const page2 = await a.get(`/api/session/${sessionID}/message?limit=2&cursor=${page1.body.cursor.next}`);
    expect(page2.body.data.map((m: Data) => m.id)).toEqual([all[2].id]);
    const back = await a.get(
      `/api/session/${sessionID}/message?limit=2&cursor=${page2.body.cursor.previous}`,
    );
    expect(back.body.data.map((m: Data) => m.id)).toEqual(all.slice(0, 2).map((m) => m.id));
    expect((await a.get(`/api/session/${sessionID}/message?cursor=garbage`)).body._tag).toBe(
      'InvalidCursorError',
    );

    mark = log.events.length;
    server.script({ text: ['held'], hold: true });
    await a.prompt(sessionID, { text: 'hold' });
    await log.next<Data>('session.message.part.delta', (d) => d.sessionID === sessionID, mark);
    expect((await t.http.delete(`/api/session/${sessionID}`).set('authorization', basic())).status).toBe(204);
    const interrupted = await log.next<Data>(
      'session.execution.interrupted',
      (d) => d.sessionID === sessionID,
      mark,
    );
    expect(interrupted.data.reason).toBe('deleted');
    expect((await a.get('/api/session/active')).body.data).toEqual({});
  });

  it('moves a running session at the next step boundary; a reload rejects its pending ask', async () => {
    const project = scriptedProject(server);
    const target = scriptedProject(server, { 'there.txt': 'in the new place' });
    const sessionID = await a.createSession(project, {
      permissions: [{ action: 'bash', resource: '*', effect: 'ask' }],
    });
    const mark = log.events.length;
    server.script(
      { toolCalls: [{ name: 'bash', input: { command: 'echo one' } }] },
      { toolCalls: [{ name: 'bash', input: { command: 'cat there.txt' } }] },
      { text: 'moved' },
    );
    await a.prompt(sessionID, { text: 'go' });
    const first = await log.asked(sessionID, mark);
    expect((await a.post(`/api/session/${sessionID}/move`, { directory: target })).status).toBe(204);
    // Not yet: the step that asked is still running where it started.
    expect((await a.session(sessionID)).location.directory).toBe(project);
    expect((await t.http.post('/api/location/reload').set('authorization', basic())).status).toBe(204);
    const replied = await log.next<Data>('permission.replied', (d) => d.requestID === first.data.id, mark);
    expect(replied.data.reply).toBe('reject');

    const second = await log.asked(sessionID, log.events.indexOf(replied));
    expect((await a.session(sessionID)).location.directory).toBe(target);
    await a.reply(sessionID, second.data.id, 'once');
    await log.idle(sessionID, mark);
    const messages = await a.messages(sessionID);
    expect(messages.map((m) => m.type)).toEqual([
      'user',
      'assistant',
      'location-switched',
      'assistant',
      'assistant',
    ]);
    expect(messages[1].content[0].state).toMatchObject({
      status: 'error',
      error: { type: 'PermissionRejected' },
    });
    expect(messages[3].content[0].state.content[0].text).toContain('in the new place');
  });

  it('runs a custom agent of the location (system prompt, steps limit); `always` adds a rule to the session', async () => {
    const project = projectDir({
      'outpost.json': providerConfig(server, {
        agents: { reviewer: { system: 'You review code.', steps: 2, mode: 'primary' } },
      }),
    });
    const sessionID = await a.createSession(project, {
      permissions: [{ action: 'bash', resource: '*', effect: 'ask' }],
    });
    expect((await a.post(`/api/session/${sessionID}/agent`, { agent: 'nobody' })).body).toMatchObject({
      _tag: 'AgentNotFoundError',
      agentID: 'nobody',
    });
    expect((await a.post(`/api/session/${sessionID}/agent`, { agent: 'reviewer' })).status).toBe(204);
    const mark = log.events.length;
    const base = server.requests.length;
    server.script(
      { toolCalls: [{ name: 'bash', input: { command: 'git status -s' } }] },
      { toolCalls: [{ name: 'bash', input: { command: 'git status --long' } }] },
    );
    await a.prompt(sessionID, { text: 'review' });
    const request = await log.asked(sessionID, mark);
    await a.reply(sessionID, request.data.id, 'always');
    await log.idle(sessionID, mark);

    // The second call matched the new rule (no second ask); the steps limit (2) ended the run.
    expect(log.of(sessionID, ['permission.asked'])).toHaveLength(1);
    expect((await a.session(sessionID)).permissions).toEqual([
      { action: 'bash', resource: '*', effect: 'ask' },
      { action: 'bash', resource: 'git status *', effect: 'allow' },
    ]);
    const requests = server.requests.slice(base);
    expect(requests).toHaveLength(2);
    // The agent's own prompt closes the system prompt (after the base prompt, environment and instructions).
    expect(requests[0].body.messages[0]).toMatchObject({ role: 'system' });
    expect(requests[0].body.messages[0].content).toMatch(/\n\nYou review code\.$/);
    const assistants = (await a.messages(sessionID)).filter((m) => m.type === 'assistant');
    expect(assistants.map((m) => m.agent)).toEqual(['reviewer', 'reviewer']);
  });

  it('drains many sessions at once; a slow provider turn does not hold the others', async () => {
    const project = scriptedProject(server);
    const slow = await a.createSession(project);
    const fast = await Promise.all([1, 2, 3].map(() => a.createSession(project)));
    const mark = log.events.length;
    server.script({ text: ['slow'], hold: true });
    await a.prompt(slow, { text: 'slow' });
    await log.next<Data>('session.message.part.delta', (d) => d.sessionID === slow, mark);
    server.script({ text: 'a' }, { text: 'b' }, { text: 'c' });
    await Promise.all(fast.map((id) => a.prompt(id, { text: 'quick' })));
    await Promise.all(fast.map((id) => log.idle(id, mark)));
    expect(Object.keys((await a.get('/api/session/active')).body.data)).toEqual([slow]);
    await a.post(`/api/session/${slow}/interrupt`);
  });
});
