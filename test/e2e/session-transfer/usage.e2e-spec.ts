import { SessionMessageInfo } from '@/modules/sessions/session-message.types';
import { SessionsService } from '@/modules/sessions/sessions.service';
import { basic, createTestApp, TestApp } from '../../helpers/test-app';
import { query } from '../../helpers/test-database';
import { tempDir } from '../../helpers/sessions';
import { fullInfo, msgId, sessionId } from './fixtures';

const at = (iso: string) => Date.parse(iso);
const claude = { id: 'claude', providerID: 'anthropic' };
const gpt = { id: 'gpt', providerID: 'openai' };

function user(iso: string) {
  return { id: msgId(), type: 'user', time: { created: at(iso) }, text: 'hi' };
}

function assistant(iso: string, model: object, input: number, cost: number, tools: string[] = []) {
  const created = at(iso);
  return {
    id: msgId(),
    type: 'assistant',
    time: { created, completed: created + 1000 },
    agent: 'build',
    model,
    content: tools.map((status, i) => ({
      type: 'tool',
      id: `call_${i}`,
      name: 'read',
      state:
        status === 'completed'
          ? { status, input: {}, content: [] }
          : status === 'error'
            ? { status, input: {}, error: { type: 'x', message: 'no' } }
            : { status, input: {}, metadata: {} },
      time: { created, completed: created + 10 },
    })),
    cost,
    tokens: { input, output: 1, reasoning: 2, cache: { read: 3, write: 4 } },
  };
}

/**
 * `session_usage` is kept by triggers in the transaction of each write; these tests hold it against what
 * the messages themselves add up to, after each kind of write, and check the stats that read it.
 */
describe('session usage', () => {
  let t: TestApp;
  const one = tempDir();
  const two = tempDir();
  const auth = basic();

  beforeAll(async () => {
    t = await createTestApp({ env: { OUTPOST_DEFAULT_DIRECTORY: one } });
  });
  afterAll(() => t.close());

  const sql = (text: string, params: unknown[] = []) => query(t.databaseUrl!, text, params);
  const importSession = async (body: object) => {
    const res = await t.http.post('/api/experimental/session/import').set('authorization', auth).send(body);
    expect(res.status).toBe(200);
    return res.body.data;
  };
  const stats = async (query: string) => {
    const res = await t.http.get(`/api/experimental/session/stats?${query}`).set('authorization', auth);
    expect(res.status).toBe(200);
    return res.body.data;
  };

  /** The rows where `session_usage` and a sum over the messages disagree (none when it is right). */
  const drift = () =>
    sql(`
      WITH expected AS (
        SELECT m.time_created / 900000 AS slot, s.project_id, s.parent_id IS NULL AS root,
               coalesce(m.model, 'null'::jsonb) AS model,
               count(*) FILTER (WHERE m.type = 'user') AS user_messages,
               count(*) FILTER (WHERE m.type = 'assistant') AS steps,
               sum(coalesce(m.tokens_input, 0)) AS tokens_input, sum(coalesce(m.tokens_output, 0)) AS tokens_output,
               sum(coalesce(m.tokens_reasoning, 0)) AS tokens_reasoning,
               sum(coalesce(m.tokens_cache_read, 0)) AS tokens_cache_read,
               sum(coalesce(m.tokens_cache_write, 0)) AS tokens_cache_write, sum(coalesce(m.cost, 0)) AS cost,
               sum(m.tool_calls) AS tool_calls, sum(m.tool_succeeded) AS tool_succeeded,
               sum(m.tool_failed) AS tool_failed
        FROM session_message m JOIN session s ON s.id = m.session_id
        WHERE m.type IN ('user', 'assistant')
        GROUP BY 1, 2, 3, 4
      ),
      actual AS (
        SELECT slot, project_id, root, model, user_messages, steps, tokens_input, tokens_output, tokens_reasoning,
               tokens_cache_read, tokens_cache_write, cost, tool_calls, tool_succeeded, tool_failed
        FROM session_usage WHERE user_messages <> 0 OR steps <> 0
      )
      (SELECT 'missing' AS side, * FROM expected EXCEPT SELECT 'missing', * FROM actual)
      UNION ALL
      (SELECT 'extra', * FROM actual EXCEPT SELECT 'extra', * FROM expected)`);

  /** The tool calls where `session_tool_call` and the messages' tool parts disagree. */
  const toolDrift = () =>
    sql(`
      WITH expected AS (
        SELECT m.session_id, m.id AS message_id, c.index::int AS part, m.time_created, c.part->>'name' AS name,
               CASE c.part->'state'->>'status' WHEN 'completed' THEN 'completed' WHEN 'error' THEN 'error'
                 ELSE 'unfinished' END AS outcome,
               (c.part->'time'->>'completed')::bigint
                 - coalesce((c.part->'time'->>'ran')::bigint, (c.part->'time'->>'created')::bigint) AS duration
        FROM session_message m
        CROSS JOIN LATERAL jsonb_path_query(m.data, '$.content[*] ? (@.type == "tool")') WITH ORDINALITY AS c(part, index)
        WHERE m.type = 'assistant'
      ),
      actual AS (
        SELECT session_id, message_id, part, time_created, name, outcome::text, duration FROM session_tool_call
      )
      (SELECT 'missing' AS side, * FROM expected EXCEPT SELECT 'missing', * FROM actual)
      UNION ALL
      (SELECT 'extra', * FROM actual EXCEPT SELECT 'extra', * FROM expected)`);
  const check = async () => {
    expect(await drift()).toEqual([]);
    expect(await toolDrift()).toEqual([]);
  };

  it('adds up to what the messages do after imports, appends, updates, completions, forks, moves and deletes', async () => {
    const sessions = t.app.get(SessionsService);
    const usageRows = async () => Number((await sql('SELECT count(*) AS n FROM session_usage'))[0].n);
    const a = sessionId();
    const child = sessionId();
    await importSession({
      info: fullInfo(a, one),
      messages: [
        user('2026-05-01T10:00:00Z'),
        assistant('2026-05-01T10:01:00Z', claude, 10, 0.5, ['completed', 'error']),
        user('2026-05-01T10:20:00Z'),
        assistant('2026-05-01T10:21:00Z', gpt, 20, 1, ['running']),
      ],
    });
    await importSession({
      info: fullInfo(child, one, { parentID: a }),
      messages: [user('2026-05-01T10:05:00Z'), assistant('2026-05-01T10:06:00Z', claude, 5, 0.25)],
    });
    expect(await usageRows()).toBeGreaterThan(0);
    expect(await sql('SELECT count(*)::int AS n FROM session_tool_call')).toEqual([{ n: 3 }]);
    await check();

    // A prompt, then a step that streams (a tool call appears, then completes) and closes with its usage.
    await sessions.appendMessage(a, {
      type: 'user',
      text: 'again',
      time: { created: at('2026-05-02T09:00:00Z') },
    });
    const created = at('2026-05-02T09:01:00Z');
    const stepId = await sessions.appendMessage(a, {
      type: 'assistant',
      agent: 'build',
      model: claude,
      content: [],
      time: { created },
    });
    await check();
    const step = {
      id: stepId,
      type: 'assistant',
      agent: 'build',
      model: claude,
      time: { created },
      content: [
        {
          type: 'tool',
          id: 'call_x',
          name: 'bash',
          state: { status: 'running', input: {}, metadata: {} },
          time: { created },
        },
      ],
    } as unknown as SessionMessageInfo & { content: Array<Record<string, unknown>> };
    expect(await sessions.updateMessage(a, step)).toBe(true);
    await check();
    step.content[0].state = { status: 'completed', input: {}, content: [] };
    (step.time as { completed?: number }).completed = created + 500;
    await sessions.completeStep(
      a,
      step,
      { input: 7, output: 8, reasoning: 9, cache: { read: 1, write: 2 } },
      12345,
    );
    await check();

    // A fork copies the history into a child; a move takes the session's usage to another project.
    const fork = await t.http.post(`/api/session/${a}/fork`).set('authorization', auth).send({});
    expect(fork.status).toBe(200);
    await check();
    const move = await t.http
      .post(`/api/session/${a}/move`)
      .set('authorization', auth)
      .send({ directory: two });
    expect(move.status).toBe(204);
    const [{ project_id: moved }] = await sql('SELECT project_id FROM session WHERE id = $1', [a]);
    expect(
      Number((await sql('SELECT sum(steps) AS n FROM session_usage WHERE project_id = $1', [moved]))[0].n),
    ).toBe(3);
    await check();

    // One message deleted on its own, then the whole tree (the session, its child and its fork).
    await sql(`DELETE FROM session_message WHERE session_id = $1 AND type = 'user'`, [child]);
    await check();
    expect((await t.http.delete(`/api/session/${a}`).set('authorization', auth)).status).toBe(204);
    await check();
    expect(
      await sql(
        'SELECT * FROM session_usage WHERE user_messages <> 0 OR steps <> 0 OR tokens_input <> 0 OR cost <> 0',
      ),
    ).toEqual([]);
  });

  it('never fails a message write over odd content: the call gets an empty name and no duration', async () => {
    const a = sessionId();
    await importSession({ info: fullInfo(a, one), messages: [] });
    const id = msgId();
    const odd = [{ type: 'tool', state: 5, time: { created: 1e300, completed: 'soon' } }, 7, 'tool'];
    await sql(
      `INSERT INTO session_message (session_id, id, type, data, time_created) VALUES ($1, $2, 'assistant', $3, 1)`,
      [a, id, JSON.stringify({ content: odd })],
    );
    expect(
      await sql('SELECT name, outcome, duration FROM session_tool_call WHERE message_id = $1', [id]),
    ).toEqual([{ name: '', outcome: 'unfinished', duration: null }]);
    const failed = {
      type: 'tool',
      name: 'x',
      state: { status: 'error' },
      time: { created: '0', completed: 3 },
    };
    await sql(`UPDATE session_message SET data = $2 WHERE id = $1`, [
      id,
      JSON.stringify({ content: failed }),
    ]);
    expect(
      await sql('SELECT name, outcome, duration FROM session_tool_call WHERE message_id = $1', [id]),
    ).toEqual([{ name: 'x', outcome: 'error', duration: null }]);
    expect(await drift()).toEqual([]);
  });

  it('answers stats that follow new messages, forks and deletes', async () => {
    const from = at('2026-06-01T00:00:00Z');
    const range = `from=${from}&to=${at('2026-07-01T00:00:00Z')}&tools=summary`;
    const a = sessionId();
    await importSession({
      info: fullInfo(a, one),
      messages: [
        user('2026-06-03T08:00:00Z'),
        assistant('2026-06-03T08:01:00Z', claude, 100, 1, ['completed']),
      ],
    });
    expect(await stats(range)).toMatchObject({ sessions: 1, subagents: 0, prompts: 1, steps: 1, cost: 1 });
    await t.app.get(SessionsService).appendMessage(a, {
      ...assistant('2026-06-04T08:00:00Z', gpt, 50, 2, ['error']),
      id: undefined,
    } as never);
    const grown = await stats(range);
    expect(grown).toMatchObject({
      prompts: 1,
      steps: 2,
      cost: 3,
      activeDays: 2,
      streak: 2,
      tools: { mode: 'summary', totals: { calls: 2, succeeded: 1, failed: 1, unfinished: 0 } },
    });
    const fork = await t.http.post(`/api/session/${a}/fork`).set('authorization', auth).send({});
    // The fork's copies count as its own steps; its prompts are a subagent's, not the user's.
    expect(await stats(range)).toMatchObject({ sessions: 1, subagents: 1, prompts: 1, steps: 4, cost: 6 });
    expect((await stats(range.replace('summary', 'detail'))).tools.usage).toEqual([
      { name: 'read', calls: 4, succeeded: 2, failed: 2, unfinished: 0, durationP50: 10 },
    ]);
    expect((await t.http.delete(`/api/session/${fork.body.data.id}`).set('authorization', auth)).status).toBe(
      204,
    );
    expect(await stats(range)).toEqual(grown);
    expect((await stats(range.replace('summary', 'detail'))).tools.usage).toEqual([
      { name: 'read', calls: 2, succeeded: 1, failed: 1, unfinished: 0, durationP50: 10 },
    ]);
  });

  it('counts a range that starts and ends inside a quarter hour exactly, in any zone', async () => {
    const a = sessionId();
    await importSession({
      info: fullInfo(a, one),
      messages: [
        user('2026-08-01T10:07:00Z'),
        assistant('2026-08-01T10:08:00Z', claude, 1, 0.01),
        assistant('2026-08-01T10:14:59.999Z', claude, 1, 0.01),
        assistant('2026-08-01T10:15:00Z', claude, 1, 0.01),
        assistant('2026-08-01T10:29:00Z', claude, 1, 0.01),
        user('2026-08-01T10:31:00Z'),
        assistant('2026-08-01T10:44:00Z', claude, 1, 0.01),
        // Midnight in Kathmandu (UTC+5:45) is 18:15 UTC.
        assistant('2026-08-01T18:14:00Z', claude, 1, 0.01),
        assistant('2026-08-01T18:16:00Z', claude, 1, 0.01),
      ],
    });
    const steps = async (fromIso: string, toIso: string, zone = 'UTC') =>
      (await stats(`from=${at(fromIso)}&to=${at(toIso)}&timezone=${zone}&tools=none`)).steps;
    expect(await steps('2026-08-01T10:08:00Z', '2026-08-01T10:29:00Z')).toBe(3);
    expect(await steps('2026-08-01T10:08:00.001Z', '2026-08-01T10:29:00.001Z')).toBe(3);
    expect(await steps('2026-08-01T10:09:00Z', '2026-08-01T10:14:00Z')).toBe(0);
    expect(await steps('2026-08-01T10:00:00Z', '2026-08-01T11:00:00Z', 'Asia/Kathmandu')).toBe(5);
    const within = await stats(
      `from=${at('2026-08-01T10:07:00Z')}&to=${at('2026-08-01T10:31:00.001Z')}&timezone=Asia/Kolkata&tools=none`,
    );
    expect(within).toMatchObject({ prompts: 2, steps: 4, activity: [{ date: '2026-08-01', steps: 4 }] });
    const day = await stats(
      `from=${at('2026-08-01T00:00:00Z')}&to=${at('2026-08-02T00:00:00Z')}&timezone=Asia/Kathmandu&tools=none`,
    );
    expect(day.activity).toEqual([
      { date: '2026-08-01', steps: 6 },
      { date: '2026-08-02', steps: 1 },
    ]);
  });
});
