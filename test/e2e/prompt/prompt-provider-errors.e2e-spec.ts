import { openSse } from '../../helpers/sse';
import { ScriptedModelServer } from '../../helpers/scripted-model-server';
import { basic, TestApp } from '../../helpers/test-app';
import {
  api,
  EventLog,
  FAST_RETRIES,
  outline,
  scriptedProject,
  startScripted,
  stopScripted,
} from '../../helpers/prompt';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

describe('Provider errors: passing ones are retried and shown as retry status; a full context compacts and retries once', () => {
  let t: TestApp;
  let server: ScriptedModelServer;
  let log: EventLog;

  beforeAll(async () => ({ t, server, log } = await startScripted({ env: FAST_RETRIES })));
  afterAll(() => stopScripted({ t, server }));

  it('a 429 with Retry-After is retried; clients see the retry (v2 session.step.retrying, v1 session.status retry)', async () => {
    const project = scriptedProject(server);
    const a = api(t);
    const sessionID = await a.createSession(project);
    const stream = await openSse(`${t.url}/event?directory=${encodeURIComponent(project)}`, {
      authorization: basic(),
    });
    try {
      server.script(
        { error: { status: 429, message: 'slow down', headers: { 'retry-after': '0' } } },
        { error: { status: 529, message: 'overloaded' } },
        { text: 'Finally.' },
      );
      const mark = log.events.length;
      await a.prompt(sessionID, { text: 'hello' });
      await log.idle(sessionID, mark);
      const retries = log.events.slice(mark).filter((e) => e.type === 'session.step.retrying');
      expect(retries.map((e) => (e.data as Json).attempt)).toEqual([1, 2]);
      expect((retries[0].data as Json).error).toContain('slow down');
      await stream.until((events) =>
        events.some((e) => (e as unknown as Json).properties?.status?.type === 'retry'),
      );
      const status = stream.events.find((e) => (e as unknown as Json).properties?.status?.type === 'retry');
      expect((status as unknown as Json).properties).toMatchObject({
        sessionID,
        status: {
          type: 'retry',
          attempt: 1,
          message: expect.stringContaining('slow down'),
          next: expect.any(Number),
        },
      });
      const last = (await a.messages(sessionID)).at(-1)!;
      expect(last).toMatchObject({ type: 'assistant', content: [{ type: 'text', text: 'Finally.' }] });
    } finally {
      stream.close();
    }
  });

  it('a context-overflow error compacts the session and tries the step once more with the summary', async () => {
    const project = scriptedProject(server);
    const a = api(t);
    const sessionID = await a.createSession(project);
    server.script({ text: 'an early answer' });
    await a.prompt(sessionID, { text: 'early question' });
    await log.idle(sessionID, log.events.length - 1);

    const before = server.requests.length;
    server.script(
      { error: { status: 400, message: 'prompt is too long: 250000 tokens > 200000 maximum' } },
      { text: 'SUMMARY: one thing was asked and answered.' },
      { text: 'Answered after compaction.' },
    );
    const mark = log.events.length;
    await a.prompt(sessionID, { text: 'late question' });
    await log.idle(sessionID, mark);

    const [failed, summary, retried] = server.requests
      .slice(before)
      .map((r) => JSON.stringify(r.body.messages));
    expect(failed).toContain('early question');
    expect(summary).toContain('Provide a detailed summary');
    expect(retried).toContain('SUMMARY: one thing was asked and answered.');
    expect(retried).not.toContain('early question');
    expect(retried).toContain('late question');
    const messages = await a.messages(sessionID);
    expect(outline(messages)).toEqual([
      'user:early question',
      'assistant',
      'user:late question',
      'assistant',
      'compaction',
      'synthetic',
      'assistant',
    ]);
    expect(messages[3].error).toMatchObject({ type: 'ContextOverflowError' });
    expect(messages[6].content).toEqual([{ type: 'text', text: 'Answered after compaction.' }]);
    expect(server.requests.length).toBe(before + 3);
  });
});
