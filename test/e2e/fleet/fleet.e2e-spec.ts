import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { bearer, Person, serviceAccountKey, signup } from '../../helpers/console';
import { signInDevice } from '../../helpers/device';
import { eventually } from '../../helpers/eventually';
import { startNginx } from '../../helpers/nginx';
import { freePort, ServerProcess, startServer, waitForHealth } from '../../helpers/processes';
import { ScriptedModelServer } from '../../helpers/scripted-model-server';
import { TestApp } from '../../helpers/test-app';
import { createTestDatabase, query } from '../../helpers/test-database';

jest.setTimeout(180_000);

const SECRET = 'fleet-test-secret-0123456789abcdef';

/**
 * Console and gateway as three stateless nodes on one PostgreSQL behind a real nginx (round robin), as
 * docs/operations.md describes a fleet: a client whose requests land on different nodes never notices.
 */
describe('three console and gateway nodes behind nginx', () => {
  let upstream: ScriptedModelServer;
  let database: { url: string; drop: () => Promise<void> };
  let nodes: ServerProcess[];
  /** Each node's environment: a killed node starts again with the same one (its data directory too). */
  let envs: Array<Record<string, string>>;
  let proxy: { url: string; stop: () => Promise<void> };
  let t: TestApp;
  let owner: Person;

  beforeAll(async () => {
    upstream = await ScriptedModelServer.start();
    upstream.answerUnstreamed = true;
    upstream.fallback = { text: 'ok', usage: { input: 10, output: 10 }, delayMs: 15 };
    database = await createTestDatabase();
    const dir = mkdtempSync(join(tmpdir(), 'outpost-fleet-'));
    writeFileSync(
      join(dir, 'gateway.yaml'),
      `providers:\n  up:\n    base_url: ${upstream.baseURL}\n    schema: openai-chat\n    api_key_env: UP_KEY\n    models:\n      small: { prices: { input: 1, output: 2 }, max_output: 4000 }\n`,
    );
    const proxyPort = await freePort();
    envs = await Promise.all(
      [0, 1, 2].map(async (index) => ({
        DATABASE_URL: database.url,
        PORT: String(await freePort()),
        OUTPOST_DATA_DIR: mkdtempSync(join(tmpdir(), `outpost-fleet-node${index}-`)),
        OUTPOST_SURFACES: 'console,inference',
        OUTPOST_SECRET_KEY: SECRET,
        OUTPOST_TRUST_PROXY: '127.0.0.1',
        OUTPOST_CONSOLE_ORIGIN: `http://127.0.0.1:${proxyPort}`,
        OUTPOST_GATEWAY_CONFIG: join(dir, 'gateway.yaml'),
        UP_KEY: 'sk-up',
        OUTPOST_DRAIN_DELAY_MS: '1000',
        OUTPOST_SIGNUPS_PER_HOUR: '10000',
        OUTPOST_DEVICE_CODES_PER_MINUTE: '10000',
        LOG_LEVEL: 'warn',
      })),
    );
    nodes = envs.map((env) => startServer(env));
    await Promise.all(nodes.map((node) => waitForHealth(node)));
    proxy = await startNginx(
      nodes.map((node) => node.url),
      proxyPort,
    );
    t = { url: proxy.url, http: request(proxy.url) } as TestApp;
    owner = await signup(t).catch((error: Error) => {
      const logs = nodes.map((node, index) => `node ${index} (${node.url}):\n${node.output().slice(-4000)}`);
      throw new Error(`${error.message}\n${logs.join('\n')}`);
    });
  });
  afterAll(async () => {
    for (const node of nodes ?? []) node.child.kill('SIGKILL');
    await proxy?.stop();
    await upstream?.close();
    await database?.drop();
  });

  const call = (key: string, body: object = {}) =>
    t.http
      .post('/inference/openai/v1/chat/completions')
      .set('authorization', bearer(key))
      .send({ model: 'small', max_tokens: 100, messages: [{ role: 'user', content: 'x' }], ...body });

  it('sign-in cookies, the device flow, ETags, cursors, key rate limits, budget holds, the request log and audit behave as on one node', async () => {
    // The cookie made on one node works on every node; a cookie change needs the proxy's origin.
    for (let i = 0; i < 3; i++) expect((await owner.get('/console/api/orgs')).status).toBe(200);
    // The device flow: code, approval (a page with its CSRF form) and token, each on whichever node.
    const token = await signInDevice(t, owner);
    const config = await t.http
      .get('/console/api/v2/config')
      .set('authorization', bearer(token.access_token))
      .set('x-org-id', owner.org);
    expect(config.status).toBe(200);
    for (let i = 0; i < 3; i++) {
      const again = await t.http
        .get('/console/api/v2/config')
        .set('authorization', bearer(token.access_token))
        .set('x-org-id', owner.org)
        .set('if-none-match', config.headers.etag);
      expect(again.status).toBe(304);
    }
    // Audit pages by cursor across nodes.
    for (let i = 0; i < 3; i++)
      await owner.post(`/console/api/orgs/${owner.org}/service-accounts`, { name: `sa${i}` });
    const seen: string[] = [];
    let cursor = '';
    for (let i = 0; i < 3; i++) {
      const page = await owner.get(`/console/api/orgs/${owner.org}/audit?limit=1${cursor}`);
      seen.push(page.body.entries[0].id);
      cursor = `&cursor=${page.body.next_cursor}`;
    }
    expect(new Set(seen).size).toBe(3);
    // A key's rate limit holds across the nodes.
    const limited = await serviceAccountKey(owner, owner.org, 'inference');
    const set = await owner.patch(
      `/console/api/orgs/${owner.org}/service-accounts/${limited.sa}/keys/${limited.keyId}`,
      {
        rate_limit: { requests_per_minute: 3 },
      },
    );
    expect(set.status).toBe(200);
    const statuses = [];
    for (let i = 0; i < 5; i++) statuses.push((await call(limited.key)).status);
    expect(statuses).toEqual([200, 200, 200, 429, 429]);
    // Budget holds across the nodes: 30 concurrent calls whose worst case is 80% of the budget each; one holds at a
    // time, the others wait for its hold to come back (their real cost is far below it), and what is spent never
    // passes the budget.
    const budgeted = await serviceAccountKey(owner, owner.org, 'inference');
    const budget = await owner
      .put(`/console/api/v1/budgets/members/${budgeted.sa}`, { budget_dollars: 0.01 })
      .set('x-org-id', owner.org);
    expect(budget.status).toBe(204);
    const results = await Promise.all(
      Array.from({ length: 30 }, () => call(budgeted.key, { max_tokens: 4000 })),
    );
    const admitted = results.filter((res) => res.status === 200).length;
    expect(admitted + results.filter((res) => res.status === 402).length).toBe(30);
    expect(admitted).toBe(30);
    let spend: Array<{ spent: string; held: string }> = [];
    for (let i = 0; i < 40; i++) {
      spend = await query(
        database.url,
        'SELECT spent_micro_cents::text AS spent, held_micro_cents::text AS held FROM member_spend WHERE member_id = $1',
        [budgeted.sa],
      );
      if (spend[0]?.held === '0') break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(spend[0].held).toBe('0');
    expect(BigInt(spend[0].spent)).toBe(BigInt(admitted) * 3000n); // 10 x 100 + 10 x 200 each
    expect(BigInt(spend[0].spent)).toBeLessThanOrEqual(1_000_000n);
    // The request log and the usage report see every call, whichever node answered it (each node writes its
    // rows in its own batches).
    const logged = await eventually(
      () => owner.get(`/console/api/orgs/${owner.org}/usage/requests?key=${budgeted.keyId}&limit=100`),
      (res) => res.body.data?.length >= 30,
    );
    expect(logged.body.data).toHaveLength(30);
  });

  const recordedFor = async (member: string) =>
    (
      await query<{ n: number }>(
        database.url,
        'SELECT coalesce(sum(requests), 0)::int AS n FROM usage WHERE member_id = $1',
        [member],
      )
    )[0].n;

  it('steady traffic through a SIGTERM and a SIGKILL: no call is sent to the provider twice, and only calls a node had not read or the killed node had taken fail', async () => {
    const { key, sa, keyId } = await serviceAccountKey(owner, owner.org, 'inference');
    type Phase = 'before' | 'draining' | 'killed';
    let phase: Phase = 'before';
    const outcomes: Array<{ status: number; phase: Phase; content: string }> = [];
    /** The `x-request-id` of every call the client saw answered. */
    const answeredIds: string[] = [];
    let sent = 0;
    let running = true;
    const worker = async () => {
      while (running) {
        const content = `fleet call ${sent++}`;
        const res = await call(key, { messages: [{ role: 'user', content }] }).catch(() => ({
          status: 0,
          headers: {} as Record<string, string>,
        }));
        outcomes.push({ status: res.status, phase, content });
        if (res.status === 200) answeredIds.push(res.headers['x-request-id']);
      }
    };
    const workers = Array.from({ length: 4 }, worker);
    const upstreamCalls = () => upstream.requests.length;
    const seen = upstreamCalls();
    await upstream.waitForRequests(seen + 100);
    phase = 'draining';
    nodes[0].child.kill('SIGTERM');
    expect(await nodes[0].exited).toBe(0);
    await upstream.waitForRequests(upstreamCalls() + 100);
    phase = 'killed';
    nodes[1].child.kill('SIGKILL');
    await nodes[1].exited;
    await upstream.waitForRequests(upstreamCalls() + 100);
    running = false;
    await Promise.all(workers);
    // nginx hands a model call (a POST) to another node only when it could not be sent to the first, never after a
    // node took it: the calls the killed node had taken fail (502 from nginx) instead of being sent to the provider
    // a second time by another node. A SIGTERM'd node serves on while it drains and closes each connection after
    // its answer; only a connection nginx opened at the instant the port closed can be reset (the kernel resets
    // what it had not handed over yet): that call failed before the node read it, so it never reached the provider.
    const failed = (at: Phase) => outcomes.filter((o) => o.phase === at && o.status !== 200);
    const contents = upstream.requests
      .map((r) => (r.body as { messages?: Array<{ content: string }> }).messages?.[0]?.content)
      .filter((content): content is string => content?.startsWith('fleet call ') ?? false);
    const duplicates = contents.filter((content, i) => contents.indexOf(content) !== i);
    process.stdout.write(
      `fleet calls: ${JSON.stringify({
        sent,
        upstream: contents.length,
        duplicates: duplicates.length,
        failedWhileDraining: failed('draining').length,
        failedAtKill: failed('killed').length,
      })}\n`,
    );
    expect(failed('before')).toEqual([]);
    expect(failed('draining').length).toBeLessThanOrEqual(2);
    expect(failed('draining').filter((o) => o.status !== 502 || contents.includes(o.content))).toEqual([]);
    expect(failed('killed').length).toBeLessThanOrEqual(4);
    expect(failed('killed').every((o) => o.status === 502)).toBe(true);
    expect(duplicates).toEqual([]);
    const answered = outcomes.filter((o) => o.status === 200).length;
    // The SIGTERM'd node wrote everything before it exited; the killed one journaled each call before its answer
    // left, and writes what its last batch missed when it starts again on its data directory (as a supervisor
    // restarts it). A call it billed and journaled but whose answer the kill cut off is billed without an answer.
    const recordedBefore = await recordedFor(sa);
    nodes[1] = startServer(envs[1]);
    await waitForHealth(nodes[1]);
    const recorded = await recordedFor(sa);
    process.stdout.write(`fleet: ${JSON.stringify({ answered, recordedBefore, recorded })}\n`);
    expect(recorded).toBeGreaterThanOrEqual(answered);
    expect(recorded - answered).toBeLessThanOrEqual(4);
    // The request log too: a row for every call the client saw answered (by its `x-request-id`), the killed node's
    // last ones written from its journal by the next process on its data directory, each once.
    const logged = await query<{ request_id: string; status: number }>(
      database.url,
      'SELECT request_id, status FROM request_log WHERE key_id = $1',
      [keyId],
    );
    const answeredLogged = new Set(logged.filter((row) => row.status === 200).map((row) => row.request_id));
    process.stdout.write(`fleet request log: ${JSON.stringify({ answered, logged: logged.length })}\n`);
    expect(answeredIds).toHaveLength(answered);
    expect(answeredIds.filter((id) => !answeredLogged.has(id))).toEqual([]);
    expect(new Set(logged.map((row) => row.request_id)).size).toBe(logged.length);
    expect(logged.length - answered).toBeLessThanOrEqual(4);
    // The killed node's holds come back within the lease time: nothing stays held for this member.
    const spend = await query<{ held: string }>(
      database.url,
      'SELECT held_micro_cents::text AS held FROM member_spend WHERE member_id = $1',
      [sa],
    );
    expect(spend.map((row) => row.held).every((held) => held === '0')).toBe(true);
  });
});
