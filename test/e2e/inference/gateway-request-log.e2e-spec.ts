import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { decodeRow } from '@/modules/budgets/request-log-row';
import { addMember, bearer, Person, serviceAccountKey, signup } from '../../helpers/console';
import { eventually } from '../../helpers/eventually';
import { ScriptedModelServer } from '../../helpers/scripted-model-server';
import { createTestApp, TestApp } from '../../helpers/test-app';
import { query } from '../../helpers/test-database';

const SECRET = 'request-log-test-secret-0123456789';

describe('the per-request log: GET /console/api/orgs/{org}/usage/requests', () => {
  let t: TestApp;
  let upstream: ScriptedModelServer;
  let owner: Person;
  let member: Person;
  let env: Record<string, string>;

  beforeAll(async () => {
    upstream = await ScriptedModelServer.start();
    upstream.answerUnstreamed = true;
    upstream.fallback = { text: 'ok', usage: { input: 10, output: 5 } };
    const file = join(mkdtempSync(join(tmpdir(), 'outpost-request-log-')), 'gateway.yaml');
    writeFileSync(
      file,
      `providers:\n  up:\n    base_url: ${upstream.baseURL}\n    schema: openai-chat\n    api_key_env: UP_KEY\n    models:\n      small: { prices: { input: 1, output: 2 } }\n`,
    );
    env = {
      OUTPOST_GATEWAY_CONFIG: file,
      UP_KEY: 'sk-up',
      OUTPOST_SECRET_KEY: SECRET,
      OUTPOST_REQUEST_LOG_DAYS: '30',
    };
    t = await createTestApp({ env });
    owner = await signup(t);
    member = await signup(t);
    await addMember(owner, owner.org, member, 'member');
  });
  afterAll(async () => {
    await t?.close();
    await upstream?.close();
  });

  const call = (key: string, body: object) =>
    t.http
      .post('/inference/openai/v1/chat/completions')
      .set('authorization', bearer(key))
      .send({ model: 'small', messages: [{ role: 'user', content: 'x' }], max_tokens: 10, ...body });
  /** The log as `who` reads it once it holds `count` rows: rows are written in batches, after the answer. */
  const rows = (who: Person, search = '', count = 1) =>
    eventually(
      () => who.get(`/console/api/orgs/${owner.org}/usage/requests${search}`),
      (res) => res.status !== 200 || res.body.data.length >= count,
    );

  it('has one row per call, refusals included, newest first, with what it used, cost and took', async () => {
    const { key, sa, keyId } = await serviceAccountKey(owner, owner.org, 'inference');
    expect((await call(key, {})).status).toBe(200);
    expect((await call(key, { max_tokens: 0 })).status).toBe(400);
    const budget = await owner
      .put(`/console/api/v1/budgets/members/${sa}`, { budget_dollars: 0 })
      .set('x-org-id', owner.org);
    expect(budget.status).toBe(204);
    expect((await call(key, {})).status).toBe(402);
    const res = await rows(owner, `?key=${keyId}`, 3);
    expect(res.status).toBe(200);
    expect(
      res.body.data.map((row: { status: number; outcome: string }) => [row.status, row.outcome]),
    ).toEqual([
      [402, 'budget_refused'],
      [400, 'invalid'],
      [200, 'answered'],
    ]);
    const answered = res.body.data[2];
    expect(answered).toMatchObject({
      member: sa,
      key: keyId,
      route: '/inference/openai/v1/chat/completions',
      model: 'small',
      served_by: 'up/small',
      input_tokens: 10,
      output_tokens: 5,
      cost_micro_cents: String(10 * 100 + 5 * 200),
      request_id: expect.any(String),
    });
    expect(answered.duration_ms).toBeGreaterThanOrEqual(0);
    expect(answered.ttfb_ms).toBeGreaterThanOrEqual(0);
    expect(res.body.data[0].ttfb_ms).toBeNull();
    const refused = await owner.get(`/console/api/orgs/${owner.org}/usage/requests?status=402&key=${keyId}`);
    expect(refused.body.data).toHaveLength(1);
  });

  it('pages with a cursor and exports CSV; a bad filter is a 400 naming it', async () => {
    const { key, keyId } = await serviceAccountKey(owner, owner.org, 'inference');
    for (let i = 0; i < 5; i++) expect((await call(key, {})).status).toBe(200);
    await rows(owner, `?key=${keyId}`, 5);
    const seen: string[] = [];
    let cursor = '';
    for (let page = 0; page < 5; page++) {
      const res = await owner.get(
        `/console/api/orgs/${owner.org}/usage/requests?key=${keyId}&limit=2${cursor}`,
      );
      seen.push(...res.body.data.map((row: { id: string }) => row.id));
      if (!res.body.next_cursor) break;
      cursor = `&cursor=${res.body.next_cursor}`;
    }
    expect(seen).toHaveLength(5);
    expect(new Set(seen).size).toBe(5);
    expect([...seen].sort().reverse()).toEqual(seen);
    const csv = await owner.get(`/console/api/orgs/${owner.org}/usage/requests?key=${keyId}&format=csv`);
    expect(csv.headers['content-type']).toMatch(/^text\/csv/);
    const lines = csv.text.trim().split('\r\n');
    expect(lines[0]).toBe(
      'time,request_id,member,member_name,key,key_name,route,model,model_name,served_by,status,outcome,input_tokens,output_tokens,cost_micro_cents,cost_dollars,duration_ms,ttfb_ms',
    );
    expect(lines).toHaveLength(6);
    const bad = await owner.get(`/console/api/orgs/${owner.org}/usage/requests?status=42`);
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/^status: /);
  });

  it('a member sees only their own calls, whatever they ask for', async () => {
    const personal = await member.post(`/console/api/orgs/${owner.org}/keys`, {
      name: 'mine',
      permission: 'inference',
    });
    expect((await call(personal.body.key, {})).status).toBe(200);
    const own = await rows(member);
    expect(own.status).toBe(200);
    expect(own.body.data.length).toBeGreaterThan(0);
    expect(own.body.data.every((row: { member: string }) => row.member === member.id)).toBe(true);
    const asked = await member.get(`/console/api/orgs/${owner.org}/usage/requests?member=${owner.id}`);
    expect(asked.body.data.every((row: { member: string }) => row.member === member.id)).toBe(true);
  });

  it("logs a caller's model name as it came, tabs, line breaks and backslashes included (a NUL as U+FFFD)", async () => {
    const { key, keyId } = await serviceAccountKey(owner, owner.org, 'inference');
    const odd = 'a\tb\nc\\N\r\u0000d';
    expect((await call(key, { model: odd })).status).toBe(404);
    expect((await call(key, {})).status).toBe(200); // the batch after it is written too
    const res = await rows(owner, `?key=${keyId}`, 2);
    expect(res.body.data.map((row: { model: string; status: number }) => [row.model, row.status])).toEqual([
      ['small', 200],
      ['a\tb\nc\\N\r\uFFFDd', 404],
    ]);
  });

  it('a batch holding a row written already (its earlier write committed, its answer lost) writes the rest, that row once', async () => {
    const { key, keyId } = await serviceAccountKey(owner, owner.org, 'inference');
    // The batch waits behind this transaction's lock while the row of its first call is written here.
    const outside = new Client({ connectionString: t.databaseUrl });
    await outside.connect();
    try {
      await outside.query('BEGIN');
      await outside.query('LOCK TABLE request_log IN SHARE MODE');
      // Straight to the first node (not through a fleet's balancer): its journal is the one in `t.dataDir`.
      const direct = () =>
        fetch(`${t.nodes[0].url}/inference/openai/v1/chat/completions`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: bearer(key) },
          body: JSON.stringify({
            model: 'small',
            messages: [{ role: 'user', content: 'x' }],
            max_tokens: 10,
          }),
        });
      expect((await direct()).status).toBe(200);
      expect((await direct()).status).toBe(200);
      const journal = join(t.dataDir, 'request-log-journal');
      const lines = readdirSync(journal)
        .flatMap((file) => readFileSync(join(journal, file), 'utf8').split('\n'))
        .filter((line) => line.includes(`\t${keyId}\t`));
      expect(lines).toHaveLength(2);
      const first = decodeRow(lines[0])!;
      await outside.query(
        `INSERT INTO request_log (id, workspace_id, member_id, key_id, request_id, route, model, served_by, status,
                                  outcome, input_tokens, output_tokens, cost_micro_cents, duration_ms, ttfb_ms, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16)`,
        Object.values(first),
      );
      await outside.query('COMMIT');
    } finally {
      await outside.end();
    }
    const logged = await eventually(
      () => query<{ id: string }>(t.databaseUrl!, 'SELECT id FROM request_log WHERE key_id = $1', [keyId]),
      (found) => found.length >= 2,
    );
    expect(logged).toHaveLength(2);
    expect(new Set(logged.map((row) => row.id)).size).toBe(2);
  });

  it('rows older than OUTPOST_REQUEST_LOG_DAYS are pruned', async () => {
    const [{ n: before }] = await query(t.databaseUrl!, 'SELECT count(*)::int AS n FROM request_log');
    await query(
      t.databaseUrl!,
      `INSERT INTO request_log (id, workspace_id, member_id, key_id, request_id, route, model, served_by, status, outcome,
                                input_tokens, output_tokens, cost_micro_cents, duration_ms, ttfb_ms, created_at)
       VALUES ('rql_00000000000000000000000000', $1, $2, NULL, 'old', '/x', 'm', NULL, 200, 'answered', 0, 0, 0, 1, 1,
               now() - interval '31 days')`,
      [owner.org, owner.id],
    );
    // Another server starting on the database prunes at once (and every hour after).
    const other = await createTestApp({ env, databaseUrl: t.databaseUrl });
    try {
      const [{ n: left }] = await eventually(
        () => query(t.databaseUrl!, 'SELECT count(*)::int AS n FROM request_log'),
        ([{ n }]) => n === before,
      );
      expect(left).toBe(before);
    } finally {
      await other.close();
    }
  });
});
