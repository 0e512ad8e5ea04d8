import { basic, createTestApp, TestApp } from '../../helpers/test-app';
import { tempDir } from '../../helpers/sessions';
import { fullInfo, msgId, sessionId } from './fixtures';

const at = (iso: string) => Date.parse(iso);
const claude = { id: 'claude', providerID: 'anthropic' };
const gpt = { id: 'gpt', providerID: 'openai' };
const claudeHigh = { ...claude, variant: 'high' };

function user(iso: string) {
  return { id: msgId(), type: 'user', time: { created: at(iso) }, text: 'hi' };
}

function tool(name: string, status: string, time: Record<string, number>) {
  const state =
    status === 'completed'
      ? { status, input: {}, content: [] }
      : status === 'error'
        ? { status, input: {}, error: { type: 'x', message: 'no' } }
        : { status, input: {}, metadata: {} };
  return { type: 'tool', id: `call_${name}`, name, state, time };
}

function assistant(
  iso: string,
  model: object,
  tokens: [number, number, number, number, number],
  cost: number,
  content: object[] = [],
) {
  const created = at(iso);
  return {
    id: msgId(),
    type: 'assistant',
    time: { created, completed: created + 1000 },
    agent: 'build',
    model,
    content: [{ type: 'text', text: 'ok' }, ...content],
    cost,
    tokens: {
      input: tokens[0],
      output: tokens[1],
      reasoning: tokens[2],
      cache: { read: tokens[3], write: tokens[4] },
    },
  };
}

describe('session stats', () => {
  let t: TestApp;
  const one = tempDir();
  const two = tempDir();
  const auth = basic();
  const a = sessionId();
  const b = sessionId();
  const c = sessionId();
  const from = at('2026-03-01T00:00:00Z');
  const to = at('2026-04-01T00:00:00Z');
  let projectTwo: string;

  const stats = (query: string) =>
    t.http.get(`/api/experimental/session/stats?${query}`).set('authorization', auth);
  const importSession = async (body: object) => {
    const res = await t.http.post('/api/experimental/session/import').set('authorization', auth).send(body);
    expect(res.status).toBe(200);
    return res.body.data;
  };

  beforeAll(async () => {
    t = await createTestApp({ env: { OUTPOST_DEFAULT_DIRECTORY: one } });
    await importSession({
      info: fullInfo(a, one),
      messages: [
        user('2026-03-10T12:00:00Z'),
        assistant('2026-03-10T12:01:00Z', claude, [10, 20, 1, 2, 3], 0.5, [
          tool('read', 'completed', { created: 0, ran: 100, completed: 300 }),
          tool('bash', 'error', { created: 1000, completed: 1030 }),
        ]),
        // 03:00 UTC on the 11th is still the 10th in Los Angeles (UTC−7 after March 8).
        user('2026-03-11T03:00:00Z'),
        assistant('2026-03-11T03:30:00Z', gpt, [100, 200, 0, 0, 0], 1, [
          tool('read', 'running', { created: 5 }),
        ]),
        assistant('2026-03-12T10:00:00Z', claudeHigh, [1, 1, 1, 1, 1], 0.01, [
          tool('read', 'completed', { created: 1000, completed: 1400 }),
        ]),
        // At `to`: outside [from, to).
        assistant('2026-04-01T00:00:00Z', claude, [7, 7, 7, 7, 7], 7),
      ],
    });
    await importSession({
      info: fullInfo(c, one, { parentID: a }),
      messages: [
        user('2026-03-14T10:00:00Z'),
        assistant('2026-03-14T10:05:00Z', claude, [5, 5, 0, 0, 0], 0.25, [
          tool('grep', 'completed', { created: 0, ran: 10, completed: 60 }),
        ]),
      ],
    });
    projectTwo = (
      await importSession({
        info: fullInfo(b, two),
        messages: [
          {
            id: msgId(),
            type: 'synthetic',
            time: { created: at('2026-03-20T09:00:00Z') },
            text: 'not a prompt',
          },
          user('2026-03-20T10:00:00Z'),
          assistant('2026-03-20T10:01:00Z', claude, [1000, 0, 0, 0, 0], 2),
        ],
      })
    ).projectID;
  });
  afterAll(() => t.close());

  const tokens = (input: number, output: number, reasoning: number, read: number, write: number) => ({
    input,
    output,
    reasoning,
    cache: { read, write },
  });

  it('adds up a hand-built data set in UTC, with the tools summary by default', async () => {
    const res = await stats(`from=${from}&to=${to}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      data: {
        range: { from, to },
        sessions: 2,
        subagents: 1,
        prompts: 3,
        steps: 5,
        tokens: tokens(1116, 226, 2, 3, 4),
        cost: 3.76,
        tools: { mode: 'summary', totals: { calls: 5, succeeded: 3, failed: 1, unfinished: 1 } },
        activeDays: 5,
        streak: 3,
        activity: [
          { date: '2026-03-10', steps: 1 },
          { date: '2026-03-11', steps: 1 },
          { date: '2026-03-12', steps: 1 },
          { date: '2026-03-14', steps: 1 },
          { date: '2026-03-20', steps: 1 },
        ],
        models: [
          { model: claude, steps: 3, tokens: tokens(1015, 25, 1, 2, 3), cost: 2.75 },
          { model: gpt, steps: 1, tokens: tokens(100, 200, 0, 0, 0), cost: 1 },
          { model: claudeHigh, steps: 1, tokens: tokens(1, 1, 1, 1, 1), cost: 0.01 },
        ],
      },
    });
  });

  it('counts calendar days in the requested zone: the day boundary moves and the streak breaks', async () => {
    const res = await stats(`from=${from}&to=${to}&timezone=America/Los_Angeles&tools=none`);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      activeDays: 4,
      streak: 1,
      activity: [
        { date: '2026-03-10', steps: 2 },
        { date: '2026-03-12', steps: 1 },
        { date: '2026-03-14', steps: 1 },
        { date: '2026-03-20', steps: 1 },
      ],
      tools: { mode: 'none' },
      steps: 5,
    });
  });

  it('gives per-tool usage with the median duration in detail mode', async () => {
    const res = await stats(`from=${from}&to=${to}&tools=detail`);
    expect(res.body.data.tools).toEqual({
      mode: 'detail',
      totals: { calls: 5, succeeded: 3, failed: 1, unfinished: 1 },
      usage: [
        { name: 'read', calls: 3, succeeded: 2, failed: 0, unfinished: 1, durationP50: 300 },
        { name: 'bash', calls: 1, succeeded: 0, failed: 1, unfinished: 0, durationP50: 30 },
        { name: 'grep', calls: 1, succeeded: 1, failed: 0, unfinished: 0, durationP50: 50 },
      ],
    });
  });

  it('filters by project', async () => {
    const res = await stats(`from=${from}&to=${to}&project=${projectTwo}&tools=detail`);
    expect(res.body.data).toMatchObject({
      sessions: 1,
      subagents: 0,
      prompts: 1,
      steps: 1,
      cost: 2,
      activity: [{ date: '2026-03-20', steps: 1 }],
      tools: { mode: 'detail', totals: { calls: 0, succeeded: 0, failed: 0, unfinished: 0 }, usage: [] },
    });
  });

  it('starts at the earliest message when from is absent, and counts up to to (exclusive)', async () => {
    const res = await stats(`to=${at('2026-04-01T00:00:00.001Z')}&tools=none`);
    expect(res.body.data.range).toEqual({
      from: at('2026-03-10T12:00:00Z'),
      to: at('2026-04-01T00:00:00.001Z'),
    });
    expect(res.body.data.steps).toBe(6);
    const empty = await stats(`from=${at('2025-01-01T00:00:00Z')}&to=${at('2025-02-01T00:00:00Z')}`);
    expect(empty.body.data).toMatchObject({
      sessions: 0,
      steps: 0,
      activeDays: 0,
      streak: 0,
      activity: [],
      models: [],
    });
  });

  it('refuses from after to, an unknown zone, an unknown tools mode and a non-numeric time', async () => {
    const cases: Array<[string, string]> = [
      [`from=${to}&to=${from}`, 'from'],
      ['timezone=Mars/Olympus_Mons', 'timezone'],
      ['timezone=PST', 'timezone'],
      ['tools=all', 'tools'],
      ['from=yesterday', 'from'],
    ];
    for (const [query, field] of cases) {
      const res = await stats(query);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ _tag: 'InvalidRequestError', field, kind: 'Query' });
    }
  });
});
