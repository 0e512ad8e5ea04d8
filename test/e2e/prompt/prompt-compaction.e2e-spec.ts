import { projectDir } from '../../helpers/project-dir';
import { ScriptedModelServer } from '../../helpers/scripted-model-server';
import { basic, TestApp } from '../../helpers/test-app';
import { api, EventLog, outline, providerConfig, startScripted, stopScripted } from '../../helpers/prompt';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** The request's messages without the system prompt, as role:text lines (tool results by their text). */
function conversation(body: Json): string[] {
  return (body.messages as Json[])
    .filter((m) => m.role !== 'system')
    .map((m) => {
      const text =
        typeof m.content === 'string'
          ? m.content
          : Array.isArray(m.content)
            ? m.content.map((c: Json) => c.text ?? '').join('')
            : '';
      return `${m.role}:${text || (m.tool_calls ? 'tool-calls' : '')}`;
    });
}

describe('Compaction: the compaction agent summarises, the model gets the summary instead of older turns', () => {
  let t: TestApp;
  let server: ScriptedModelServer;
  let log: EventLog;

  beforeAll(async () => ({ t, server, log } = await startScripted()));
  afterAll(() => stopScripted({ t, server }));

  it('compacts on demand (v2 session.compact); later prompts send the summary, the transcript keeps every turn', async () => {
    const project = projectDir({ 'outpost.json': providerConfig(server) });
    const a = api(t);
    const sessionID = await a.createSession(project);
    for (const [text, answer] of [
      ['first question', 'first answer'],
      ['second question', 'second answer'],
    ]) {
      server.script({ text: answer });
      await a.prompt(sessionID, { text });
      await log.idle(sessionID, log.events.length - 1);
    }
    const before = server.requests.length;
    server.script({ text: 'SUMMARY: two questions were answered.' });
    const mark = log.events.length;
    const res = await a.post(`/api/session/${sessionID}/compact`);
    expect(res.status).toBe(204);

    const request = server.requests[before].body;
    expect(request.messages[0].content).toMatch(/^Summarize the conversation/);
    expect(request.tools).toBeUndefined();
    const asked = conversation(request);
    expect(asked.slice(0, 4)).toEqual([
      'user:first question',
      'assistant:first answer',
      'user:second question',
      'assistant:second answer',
    ]);
    expect(asked[4]).toMatch(/^user:Provide a detailed summary of our conversation above/);
    expect(log.of(sessionID, ['session.compacted']).length).toBe(1);
    expect(log.events.slice(mark).some((e) => e.type === 'session.compacted')).toBe(true);

    server.script({ text: 'third answer' });
    await a.prompt(sessionID, { text: 'third question' });
    await log.idle(sessionID, mark);
    expect(conversation(server.requests.at(-1)!.body)).toEqual([
      'user:What did we do so far?',
      'assistant:SUMMARY: two questions were answered.',
      'user:third question',
    ]);
    expect(outline(await a.messages(sessionID))).toEqual([
      'user:first question',
      'assistant',
      'user:second question',
      'assistant',
      'compaction',
      'user:third question',
      'assistant',
    ]);
    const context = await a.get(`/api/session/${sessionID}/context`);
    expect(context.body.data.map((m: Json) => m.type)).toEqual(['compaction', 'user', 'assistant']);
  });

  it('compacts by itself when a step fills the context (context less output limit), then goes on', async () => {
    const project = projectDir({
      'outpost.json': providerConfig(server, {
        provider: {
          scripted: {
            package: 'aisdk:@ai-sdk/openai-compatible',
            settings: { baseURL: server.baseURL, apiKey: 'sk-scripted' },
            models: { small: { limit: { context: 10_000, output: 1_000 } } },
          },
        },
      }),
      'notes.txt': 'the notes\n',
    });
    const a = api(t);
    const sessionID = await a.createSession(project);
    const before = server.requests.length;
    server.script(
      {
        toolCalls: [{ name: 'read', input: { filePath: 'notes.txt' } }],
        usage: { input: 8_800, output: 300 },
      },
      { text: 'SUMMARY: the notes were read.' },
      { text: 'Done reading.' },
    );
    await a.prompt(sessionID, { text: 'read my notes' });
    await log.idle(sessionID, log.events.length - 1);

    const [step, summary, next] = server.requests.slice(before).map((r) => r.body);
    expect(conversation(step)).toEqual(['user:read my notes']);
    expect(conversation(summary)[0]).toBe('user:read my notes');
    expect(summary.messages[0].content).toMatch(/^Summarize the conversation/);
    expect(conversation(next)).toEqual([
      'user:What did we do so far?',
      'assistant:SUMMARY: the notes were read.',
      expect.stringMatching(/^user:The conversation above was summarised[\s\S]*\n\nread my notes$/),
    ]);
    const messages = await a.messages(sessionID);
    expect(outline(messages)).toEqual([
      'user:read my notes',
      'assistant',
      'compaction',
      'synthetic',
      'assistant',
    ]);
    expect(messages[2]).toMatchObject({ status: 'completed', reason: 'auto' });
  });

  it('prunes old tool outputs before summarising, and v1 summarize (the TUI /compact) shows a compaction', async () => {
    const line = 'x'.repeat(99);
    const big = Array.from({ length: 600 }, () => line).join('\n');
    const project = projectDir({ 'outpost.json': providerConfig(server), 'big.txt': big });
    const a = api(t);
    const sessionID = await a.createSession(project);
    server.script(
      {
        toolCalls: Array.from({ length: 6 }, (_, i) => ({
          id: `call_${i}`,
          name: 'read',
          input: { filePath: 'big.txt' },
        })),
      },
      { text: 'read it six times' },
      { text: 'second' },
      { text: 'third' },
    );
    for (const text of ['read big.txt six times', 'two', 'three']) {
      await a.prompt(sessionID, { text });
      await log.idle(sessionID, log.events.length - 1);
    }
    const before = server.requests.length;
    server.script({ text: 'SUMMARY: big file read.' });
    const res = await t.http
      .post(`/session/${sessionID}/summarize?directory=${encodeURIComponent(project)}`)
      .set('authorization', basic())
      .send({ providerID: 'scripted', modelID: 'small' });
    expect(res.status).toBe(200);
    expect(res.body).toBe(true);

    const results = (server.requests[before].body.messages as Json[]).filter((m) => m.role === 'tool');
    const cleared = results.filter((m) => m.content === '[Old tool result content cleared]');
    expect(cleared.length).toBeGreaterThan(0);
    expect(cleared.length).toBeLessThan(6);
    const stored = (await a.messages(sessionID)).find((m) => m.type === 'assistant')!;
    expect(stored.content.filter((p: Json) => p.time?.compacted).length).toBe(cleared.length);

    const v1 = (
      await t.http
        .get(`/session/${sessionID}/message?directory=${encodeURIComponent(project)}`)
        .set('authorization', basic())
    ).body as Json[];
    const [user, summary] = v1.slice(-2);
    expect(user.parts).toEqual([expect.objectContaining({ type: 'compaction', auto: false })]);
    expect(summary.info).toMatchObject({ role: 'assistant', summary: true, parentID: user.info.id });
    expect(summary.parts[0]).toMatchObject({ type: 'text', text: 'SUMMARY: big file read.' });
  });

  it('compacting after an undo drops the reverted messages first: the summary never sees the undone turn', async () => {
    const project = projectDir({ 'outpost.json': providerConfig(server) });
    const a = api(t);
    const sessionID = await a.createSession(project);
    for (const [text, answer] of [
      ['kept question', 'kept answer'],
      ['undone question', 'undone answer'],
    ]) {
      server.script({ text: answer });
      await a.prompt(sessionID, { text });
      await log.idle(sessionID, log.events.length - 1);
    }
    const undone = (await a.messages(sessionID)).find(
      (m) => m.type === 'user' && m.text === 'undone question',
    )!;
    const v1 = (path: string, body: Json) =>
      t.http
        .post(`${path}?directory=${encodeURIComponent(project)}`)
        .set('authorization', basic())
        .send(body);
    expect((await v1(`/session/${sessionID}/revert`, { messageID: undone.id })).status).toBe(200);

    const before = server.requests.length;
    const mark = log.events.length;
    server.script({ text: 'SUMMARY: one question answered.' });
    const res = await v1(`/session/${sessionID}/summarize`, { providerID: 'scripted', modelID: 'small' });
    expect(res.status).toBe(200);
    const asked = conversation(server.requests[before].body);
    expect(asked.slice(0, 2)).toEqual(['user:kept question', 'assistant:kept answer']);
    expect(JSON.stringify(server.requests[before].body)).not.toContain('undone');
    // The undone turn is gone for good (announced as removed), the revert mark with it, the summary visible.
    expect(log.events.slice(mark).filter((e) => e.type === 'session.message.removed')).toHaveLength(2);
    expect((await a.session(sessionID)).revert).toBeUndefined();
    expect(outline(await a.messages(sessionID))).toEqual(['user:kept question', 'assistant', 'compaction']);
  });

  it('refuses to compact a session with nothing to compact, and reports a failed summary', async () => {
    const project = projectDir({ 'outpost.json': providerConfig(server) });
    const a = api(t);
    const empty = await a.createSession(project);
    const nothing = await a.post(`/api/session/${empty}/compact`);
    expect(nothing.status).toBe(400);

    server.script({ text: 'hi' });
    await a.prompt(empty, { text: 'hello' });
    await log.idle(empty, log.events.length - 1);
    server.script({ error: { status: 400, message: 'no summaries today' } });
    const failed = await a.post(`/api/session/${empty}/compact`);
    expect(failed.status).toBe(502);
    expect(failed.body).toMatchObject({ _tag: 'CompactionFailedError' });
    // The failed attempt is on record; the model still gets the whole transcript.
    server.script({ text: 'still here' });
    await a.prompt(empty, { text: 'again' });
    await log.idle(empty, log.events.length - 1);
    expect(conversation(server.requests.at(-1)!.body)).toEqual(['user:hello', 'assistant:hi', 'user:again']);
  });
});
