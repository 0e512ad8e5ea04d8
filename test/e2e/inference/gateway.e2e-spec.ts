import Anthropic from '@anthropic-ai/sdk';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import OpenAI from 'openai';
import { bearer, Person, serviceAccountKey, signup } from '../../helpers/console';
import { freePort, startServer } from '../../helpers/processes';
import { ScriptedModelServer } from '../../helpers/scripted-model-server';
import { createTestApp, TestApp } from '../../helpers/test-app';
import { query } from '../../helpers/test-database';

const UPSTREAM_OPENAI_KEY = 'sk-upstream-openai-5e1f';
const UPSTREAM_ANTHROPIC_KEY = 'sk-ant-upstream-77c2';
/** Shared by the two server processes of the revocation test, as the README asks of a cluster. */
const SECRET_KEY = 'gateway-test-pepper-0123456789abcdef';

/** $1 / $2 per million input / output tokens: 100 and 200 micro-cents a token. */
function catalogue(upstream: ScriptedModelServer): string {
  const file = join(mkdtempSync(join(tmpdir(), 'outpost-gateway-')), 'gateway.yaml');
  writeFileSync(
    file,
    `providers:
  scripted:
    base_url: ${upstream.baseURL}
    schema: openai-chat
    api_key_env: SCRIPTED_OPENAI_KEY
    models:
      small: { prices: { input: 1, output: 2 }, max_output: 4000 }
  responder:
    base_url: ${upstream.baseURL}
    schema: openai-responses
    api_key_env: SCRIPTED_OPENAI_KEY
    models:
      reason: { upstream: reason-1, prices: { input: 2, output: 8, cache_read: 0.5 } }
  claude:
    base_url: ${upstream.baseURL}
    schema: anthropic
    api_key_env: SCRIPTED_ANTHROPIC_KEY
    models:
      haiku: { prices: { input: 1, output: 5, cache_read: 0.1, cache_write: 1.25 } }
      claude-haiku-4-5: {}
`,
  );
  return file;
}

describe('the inference gateway (/inference/*) with the official SDKs', () => {
  let t: TestApp;
  let upstream: ScriptedModelServer;
  let owner: Person;
  let key: string;
  let saId: string;

  beforeAll(async () => {
    upstream = await ScriptedModelServer.start();
    t = await createTestApp({
      env: {
        OUTPOST_GATEWAY_CONFIG: catalogue(upstream),
        SCRIPTED_OPENAI_KEY: UPSTREAM_OPENAI_KEY,
        SCRIPTED_ANTHROPIC_KEY: UPSTREAM_ANTHROPIC_KEY,
        OUTPOST_SECRET_KEY: SECRET_KEY,
        OUTPOST_METRICS_TOKEN: 'gateway-metrics',
        // The scripted upstream of the connections listens on loopback, which connections may not reach by default.
        OUTPOST_CONNECTIONS_ALLOW: '127.0.0.1',
      },
    });
    owner = await signup(t);
    const created = await serviceAccountKey(owner, owner.org, 'inference');
    key = created.key;
    saId = created.sa;
  });
  afterAll(async () => {
    await t.close();
    await upstream.close();
  });

  const openai = (apiKey = key) =>
    new OpenAI({ baseURL: `${t.url}/inference/openai/v1`, apiKey, maxRetries: 0 });
  const anthropic = (apiKey = key) =>
    new Anthropic({ baseURL: `${t.url}/inference/anthropic`, apiKey, maxRetries: 0 });
  /** The spend settles right after the answer leaves: wait (at most 2 s) until it reads `expected`. */
  const spentBecomes = async (expected: bigint, member = saId) => {
    let now = await spent(member);
    for (let i = 0; i < 40 && now !== expected; i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      now = await spent(member);
    }
    return now;
  };
  /**
   * This month's spend once every settlement of the requests answered so far was written: usage is written
   * in batches every 200 ms, so the figure must hold still across a longer pause.
   */
  const spent = async (member = saId) => {
    let last = await spentNow(member);
    for (let i = 0; i < 20; i++) {
      await new Promise((resolve) => setTimeout(resolve, 300));
      const now = await spentNow(member);
      if (now === last) return now;
      last = now;
    }
    return last;
  };
  const spentNow = async (member: string) => {
    const res = await owner.get('/console/api/v1/budgets/members').set('x-org-id', owner.org);
    return BigInt(res.body.find((row: { user_id: string }) => row.user_id === member).spent_micro_cents);
  };

  it('OpenAI SDK, not streamed: the answer with its cost; the provider got its own key and model id; spend grows by the cost', async () => {
    const before = await spent();
    upstream.script({ text: 'hello from upstream', usage: { input: 1000, output: 500 } });
    const answer = await openai().chat.completions.create({
      model: 'scripted/small',
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(answer.choices[0].message.content).toBe('hello from upstream');
    // 1000 x 100 + 500 x 200 micro-cents = $0.002
    expect((answer as unknown as { cost: string }).cost).toBe('0.002');
    const sent = upstream.requests.at(-1)!;
    expect(sent.headers.authorization).toBe(`Bearer ${UPSTREAM_OPENAI_KEY}`);
    expect(sent.body.model).toBe('small');
    expect(await spentBecomes(before + 200_000n)).toBe(before + 200_000n);
  });

  it('OpenAI SDK, streamed: chunks pass through; usage is asked for and billed', async () => {
    const before = await spent();
    upstream.script({ text: ['one ', 'two ', 'three'], usage: { input: 10, output: 3 } });
    const stream = await openai().chat.completions.create({
      model: 'small',
      messages: [{ role: 'user', content: 'count' }],
      stream: true,
    });
    let text = '';
    for await (const chunk of stream) text += chunk.choices[0]?.delta?.content ?? '';
    expect(text).toBe('one two three');
    expect(upstream.requests.at(-1)!.body.stream_options).toEqual({ include_usage: true });
    expect(await spentBecomes(before + 10n * 100n + 3n * 200n)).toBe(before + 10n * 100n + 3n * 200n);
  });

  it('OpenAI SDK, Responses API: not streamed and streamed, usage read from the answer and from response.completed', async () => {
    const before = await spent();
    upstream.script({ text: 'a whole response', usage: { input: 100, output: 10, cacheRead: 400 } });
    const whole = await openai().responses.create({
      model: 'responder/reason',
      input: 'hi',
      max_output_tokens: 100,
    });
    expect(whole.output_text).toBe('a whole response');
    const sent = upstream.requests.at(-1)!;
    expect(sent.path).toBe('/v1/responses');
    expect(sent.body.model).toBe('reason-1');
    expect(sent.headers.authorization).toBe(`Bearer ${UPSTREAM_OPENAI_KEY}`);
    // 100 x 200 + 10 x 800 + 400 x 50 micro-cents
    const wholeCost = 100n * 200n + 10n * 800n + 400n * 50n;
    expect((whole as unknown as { cost: string }).cost).toBe('0.00048');
    expect(await spentBecomes(before + wholeCost)).toBe(before + wholeCost);

    upstream.script({ text: ['stre', 'amed'], usage: { input: 30, output: 7 } });
    const stream = await openai().responses.create({
      model: 'reason',
      input: [{ role: 'user', content: 'go' }],
      stream: true,
    });
    let text = '';
    let completed = false;
    for await (const event of stream) {
      if (event.type === 'response.output_text.delta') text += event.delta;
      if (event.type === 'response.completed') completed = true;
    }
    expect(text).toBe('streamed');
    expect(completed).toBe(true);
    const total = before + wholeCost + 30n * 200n + 7n * 800n;
    expect(await spentBecomes(total)).toBe(total);
  });

  it('a Responses request without input, or to the chat route, is a 400 naming the member', async () => {
    const noInput = await t.http
      .post('/inference/openai/v1/responses')
      .set('authorization', bearer(key))
      .send({ model: 'reason', max_output_tokens: 5 });
    expect(noInput.status).toBe(400);
    expect(noInput.body.error).toMatchObject({ code: 'InvalidInferenceRequestError', param: 'input' });
    const wrongRoute = await t.http
      .post('/inference/openai/v1/chat/completions')
      .set('authorization', bearer(key))
      .send({ model: 'reason', messages: [] });
    expect(wrongRoute.status).toBe(400);
    expect(wrongRoute.body.error.message).toContain('/inference/openai/v1/responses');
  });

  it("the workspace's provider.use policies decide which providers and models a key may call", async () => {
    const setPolicies = (policies: unknown[]) =>
      owner.put(`/console/api/orgs/${owner.org}/config`, { policies });
    const call = () =>
      t.http
        .post('/inference/anthropic/v1/messages')
        .set('x-api-key', key)
        .send({ model: 'claude/haiku', max_tokens: 5, messages: [{ role: 'user', content: 'x' }] });
    expect((await setPolicies([{ action: 'provider.use', resource: 'claude', effect: 'deny' }])).status).toBe(
      200,
    );
    const denied = await call();
    expect(denied.status).toBe(403);
    expect(denied.body).toMatchObject({
      type: 'error',
      error: { type: 'permission_error', code: 'ModelError' },
    });
    // The last matching statement wins: the one model allowed again, the provider's others still refused.
    await setPolicies([
      { action: 'provider.use', resource: 'claude', effect: 'deny' },
      { action: 'provider.use', resource: 'claude/haiku', effect: 'allow' },
    ]);
    upstream.script({ text: 'allowed', usage: { input: 1, output: 1 } });
    expect((await call()).status).toBe(200);
    const other = await t.http
      .post('/inference/anthropic/v1/messages')
      .set('x-api-key', key)
      .send({ model: 'claude/claude-haiku-4-5', max_tokens: 5, messages: [{ role: 'user', content: 'x' }] });
    expect(other.status).toBe(403);
    await setPolicies([]);
    upstream.script({ text: 'open again', usage: { input: 1, output: 1 } });
    expect((await call()).status).toBe(200);
  });

  it("bring your own key: a workspace connection's routes swap the console key for the connection's credential", async () => {
    const BYOK = 'byok-credential-4b7d1e';
    const created = await owner.post(`/console/api/orgs/${owner.org}/connections`, {
      name: 'Our proxy',
      base_url: upstream.baseURL,
      schema: 'openai-chat',
      auth: { mode: 'header', header: 'x-team-key', credential: BYOK },
      models: { 'team-model': { name: 'Team model', prices: { input: 3, output: 6 } } },
    });
    expect(created.status).toBe(201);
    const connection = created.body.id as string;
    const client = new OpenAI({
      baseURL: `${t.url}/inference/custom/${connection}`,
      apiKey: key,
      maxRetries: 0,
    });
    const before = await spent();
    upstream.script({ text: 'through your own key', usage: { input: 100, output: 10 } });
    const raw = await client.chat.completions
      .create({ model: 'team-model', messages: [{ role: 'user', content: 'hi' }] })
      .asResponse();
    const text = await raw.text();
    expect(JSON.parse(text).choices[0].message.content).toBe('through your own key');
    const sent = upstream.requests.at(-1)!;
    expect(sent.path).toBe('/v1/chat/completions');
    expect(sent.headers['x-team-key']).toBe(BYOK);
    expect(sent.headers.authorization).toBeUndefined();
    expect(JSON.stringify(sent.headers)).not.toContain(key);
    expect(text).not.toContain(BYOK);
    expect(JSON.stringify([...raw.headers])).not.toContain(BYOK);
    // 100 x 300 + 10 x 600 micro-cents, billed to the caller like any gateway request.
    expect(await spentBecomes(before + 36_000n)).toBe(before + 36_000n);
    const stored = await query(t.databaseUrl!, 'SELECT * FROM connection WHERE id = $1', [connection]);
    expect(JSON.stringify(stored)).not.toContain(BYOK);

    // The route must match the connection's schema; unknown models and connections are 404s.
    const wrong = await t.http
      .post(`/inference/custom/${connection}/messages`)
      .set('x-api-key', key)
      .send({ model: 'team-model', max_tokens: 5, messages: [] });
    expect(wrong.status).toBe(400);
    expect(wrong.body).toMatchObject({ type: 'error', error: { type: 'invalid_request_error' } });
    const unknownModel = await t.http
      .post(`/inference/custom/${connection}/chat/completions`)
      .set('authorization', bearer(key))
      .send({ model: 'nope', messages: [] });
    expect(unknownModel.status).toBe(404);
    const stranger = await signup(t);
    const strangerKey = await serviceAccountKey(stranger, stranger.org, 'inference');
    const foreign = await t.http
      .post(`/inference/custom/${connection}/chat/completions`)
      .set('authorization', bearer(strangerKey.key))
      .send({ model: 'team-model', messages: [] });
    expect(foreign.status).toBe(404);
    expect(foreign.text).not.toContain(BYOK);

    // With a key, the model list is what that key's workspace may use: the connection's model included,
    // a provider its policies deny left out; the stranger's workspace sees only the catalogue.
    await owner.put(`/console/api/orgs/${owner.org}/config`, {
      policies: [{ action: 'provider.use', resource: 'claude', effect: 'deny' }],
    });
    const ids = async (apiKey: string) => {
      const list: string[] = [];
      for await (const model of openai(apiKey).models.list()) list.push(model.id);
      return list.sort();
    };
    expect(await ids(key)).toEqual([`${connection}/team-model`, 'responder/reason', 'scripted/small']);
    expect(await ids(strangerKey.key)).toEqual([
      'claude/claude-haiku-4-5',
      'claude/haiku',
      'responder/reason',
      'scripted/small',
    ]);
    await owner.put(`/console/api/orgs/${owner.org}/config`, { policies: [] });
    const badKey = await t.http.get('/inference/v1/models').set('authorization', bearer('oc_sk_nope'));
    expect(badKey.status).toBe(401);
  });

  it('Anthropic SDK (x-api-key), not streamed and streamed, priced from the catalogue', async () => {
    const before = await spent();
    upstream.script({ text: 'bonjour', usage: { input: 100, output: 20, cacheRead: 1000 } });
    const message = await anthropic().messages.create({
      model: 'claude/haiku',
      max_tokens: 100,
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(message.content[0]).toMatchObject({ type: 'text', text: 'bonjour' });
    expect(upstream.requests.at(-1)!.headers['x-api-key']).toBe(UPSTREAM_ANTHROPIC_KEY);
    // 100 x 100 + 20 x 500 + 1000 x 10 micro-cents
    expect(await spentBecomes(before + 30_000n)).toBe(before + 30_000n);

    upstream.script({ text: ['a', 'b'], usage: { input: 5, output: 2 } });
    const stream = anthropic().messages.stream({
      model: 'claude/haiku',
      max_tokens: 50,
      messages: [{ role: 'user', content: 'x' }],
    });
    const final = await stream.finalMessage();
    expect(final.content[0]).toMatchObject({ text: 'ab' });
    expect(await spentBecomes(before + 30_000n + 5n * 100n + 2n * 500n)).toBe(
      before + 30_000n + 5n * 100n + 2n * 500n,
    );
  });

  it('GET /inference/v1/models without a key lists the catalogue in OpenAI list shape', async () => {
    const res = await t.http.get('/inference/openai/v1/models');
    expect(res.status).toBe(200);
    expect(res.body.object).toBe('list');
    const ids = res.body.data.map((model: { id: string }) => model.id);
    expect(ids.sort()).toEqual([
      'claude/claude-haiku-4-5',
      'claude/haiku',
      'responder/reason',
      'scripted/small',
    ]);
  });

  it('errors come in the caller format: the SDKs raise their own error classes', async () => {
    await expect(
      openai('oc_sk_nope_nope').chat.completions.create({ model: 'small', messages: [] }),
    ).rejects.toBeInstanceOf(OpenAI.AuthenticationError);
    const missing = await t.http
      .post('/inference/openai/v1/chat/completions')
      .set('authorization', bearer(key))
      .send({ model: 'nope', messages: [] });
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({
      error: {
        message: 'No model "nope" in this gateway\'s catalogue',
        type: 'not_found_error',
        code: 'ModelNotFoundError',
        param: null,
        model: 'nope',
      },
      model: 'nope',
    });
    const bad = await t.http
      .post('/inference/anthropic/v1/messages')
      .set('x-api-key', key)
      .send({ model: 'claude/haiku', messages: [] });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({
      type: 'error',
      error: { type: 'invalid_request_error', code: 'InvalidInferenceRequestError', field: 'max_tokens' },
    });
    await expect(
      anthropic('oc_sk_bad_bad').messages.create({ model: 'claude/haiku', max_tokens: 5, messages: [] }),
    ).rejects.toBeInstanceOf(Anthropic.AuthenticationError);
  });

  it('a body refused before the gateway reads it (malformed JSON, another content type) is in the caller format too', async () => {
    const malformed = await t.http
      .post('/inference/openai/v1/chat/completions')
      .set('authorization', bearer(key))
      .set('content-type', 'application/json')
      .send('{"model":');
    expect(malformed.status).toBe(400);
    expect(malformed.body).toMatchObject({
      error: {
        type: 'invalid_request_error',
        code: 'InvalidRequestError',
        message: expect.stringContaining('Malformed JSON body'),
      },
    });
    const text = await t.http
      .post('/inference/anthropic/v1/messages')
      .set('x-api-key', key)
      .set('content-type', 'text/plain')
      .send('hello');
    expect(text.status).toBe(400);
    expect(text.body).toMatchObject({
      type: 'error',
      error: { type: 'invalid_request_error', code: 'InvalidRequestError', field: 'content-type' },
    });
    // Elsewhere the tagged form stays.
    const instance = await t.http
      .post('/console/api/auth/signup')
      .set('content-type', 'application/json')
      .send('{"email":');
    expect(instance.body).toMatchObject({ _tag: 'InvalidRequestError' });
  });

  it('a provider 5xx is a 502 keeping its status; a 429 is retried before anything was sent', async () => {
    upstream.script({ error: { status: 503, message: 'down' } });
    const failed = await t.http
      .post('/inference/openai/v1/chat/completions')
      .set('api-key', key)
      .send({ model: 'small', messages: [{ role: 'user', content: 'x' }] });
    expect(failed.status).toBe(502);
    expect(failed.body.error).toMatchObject({ code: 'UpstreamError', upstream_status: 503 });
    upstream.script(
      { error: { status: 429, message: 'slow down' } },
      { text: 'second try', usage: { input: 1, output: 1 } },
    );
    const retried = await openai().chat.completions.create({
      model: 'small',
      messages: [{ role: 'user', content: 'x' }],
    });
    expect(retried.choices[0].message.content).toBe('second try');
  });

  it('the answer carries only content type, cache control, x-request-id and the gateway time; never the provider key', async () => {
    // The provider takes 300 ms: the gateway's own time leaves it out.
    upstream.script({ text: 'ok', usage: { input: 1, output: 1 }, delayMs: 300 });
    const res = await t.http
      .post('/inference/openai/v1/chat/completions')
      .set('authorization', bearer(key))
      .send({ model: 'small', messages: [{ role: 'user', content: 'x' }] });
    expect(res.status).toBe(200);
    expect(res.headers['x-upstream-secret-header']).toBeUndefined();
    expect(res.headers['x-request-id']).toBeDefined();
    const gatewayMs = Number(res.headers['x-outpost-gateway-ms']);
    expect(gatewayMs).toBeGreaterThan(0);
    expect(gatewayMs).toBeLessThan(250);
    expect(JSON.stringify(res.body)).not.toContain(UPSTREAM_OPENAI_KEY);
  });

  it('a stream the client drops is billed for what was produced', async () => {
    const before = await spent();
    upstream.script({ text: ['x'.repeat(400), 'y'.repeat(400)], hold: true });
    const controller = new AbortController();
    const stream = await openai().chat.completions.create(
      { model: 'small', messages: [{ role: 'user', content: 'long' }], stream: true },
      { signal: controller.signal },
    );
    let received = '';
    try {
      for await (const chunk of stream) {
        received += chunk.choices[0]?.delta?.content ?? '';
        if (received.length >= 800) controller.abort();
      }
    } catch {
      // the SDK may raise its abort error; either way the client has gone
    }
    expect(received.length).toBe(800);
    for (let i = 0; i < 50 && (await spent()) === before; i++)
      await new Promise((resolve) => setTimeout(resolve, 100));
    // 800 characters seen: 200 output tokens at least, plus the input estimate.
    expect((await spent()) - before).toBeGreaterThanOrEqual(200n * 200n);
  });

  it('200 concurrent requests whose holds exceed the budget 10x: never admitted past it; spend equals the recorded usage', async () => {
    const second = await serviceAccountKey(owner, owner.org, 'inference');
    // Worst case per request: max_tokens 1000 x 200 + a small input estimate, about 0.2 cents: 24 fit in 5 cents.
    const limitCents = 5;
    const set = await owner
      .put(`/console/api/v1/budgets/members/${second.sa}`, { budget_dollars: limitCents / 100 })
      .set('x-org-id', owner.org);
    expect({ status: set.status, body: set.body }).toEqual({ status: 204, body: {} });
    upstream.answerUnstreamed = true;
    // The provider answers nobody until every request was either forwarded or refused: all holds are
    // decided while every admitted request is still out.
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    upstream.script(
      ...Array.from({ length: 200 }, () => ({ text: 'ok', usage: { input: 10, output: 10 }, until: gate })),
    );
    const forwardedBefore = upstream.requests.length;
    let refusedSoFar = 0;
    const pending = Array.from({ length: 200 }, () =>
      t.http
        .post('/inference/openai/v1/chat/completions')
        .set('authorization', bearer(second.key))
        .send({ model: 'small', max_tokens: 1000, messages: [{ role: 'user', content: 'x' }] })
        .then((res) => {
          if (res.status === 402) refusedSoFar++;
          return res;
        }),
    );
    for (let i = 0; i < 1_500 && upstream.requests.length - forwardedBefore + refusedSoFar < 200; i++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    release();
    const results = await Promise.all(pending);
    upstream.dropPending();
    const admitted = results.filter((res) => res.status === 200);
    const refused = results.filter((res) => res.status === 402);
    expect(admitted.length + refused.length).toBe(200);
    // A 402 the SDKs do not retry (the AI SDK retries every 429), saying what the call could cost and what is left.
    expect(refused[0].body.error).toMatchObject({ code: 'UserLimitError', type: 'insufficient_quota' });
    expect(refused[0].headers['x-should-retry']).toBe('false');
    expect(refused[0].body.error.message).toMatch(
      /^This request could cost up to \$0\.\d+ \(with up to 1000 output tokens\), and your monthly budget has \$0\.\d+ left of \$0\.05 until \d{4}-\d{2}-01\. Lower max_tokens, or ask a workspace owner or admin to raise the budget\.$/,
    );
    expect(refused[0].body.resets_at).toMatch(/^\d{4}-\d{2}-01T00:00:00.000Z$/);
    // Holds are taken one at a time against the limit: never more admitted than the worst case allows.
    const limit = BigInt(Math.round(limitCents * 1_000_000));
    expect(admitted.length).toBeGreaterThan(0);
    expect(BigInt(admitted.length) * (1000n * 200n)).toBeLessThanOrEqual(limit);
    const expected = BigInt(admitted.length) * (10n * 100n + 10n * 200n);
    expect(await spentBecomes(expected, second.sa)).toBe(expected);
    const recorded = await query(
      t.databaseUrl!,
      `SELECT coalesce(sum(cost_micro_cents), 0)::text AS total, sum(requests)::int AS requests,
              count(*)::int AS rows FROM usage WHERE member_id = $1`,
      [second.sa],
    );
    expect(await spent(second.sa)).toBe(BigInt(recorded[0].total));
    // Settled together, the admitted requests share a usage row per second, and the report counts each of them.
    expect(recorded[0].requests).toBe(admitted.length);
    expect(recorded[0].rows).toBeLessThan(admitted.length);
    const report = await owner.get(
      `/console/api/orgs/${owner.org}/usage?group_by=member&from=2000-01-01T00:00:00Z`,
    );
    expect(report.body.data.find((row: { key: string }) => row.key === second.sa)).toMatchObject({
      requests: admitted.length,
      spent_micro_cents: recorded[0].total,
    });
    const held = await query(
      t.databaseUrl!,
      'SELECT held_micro_cents::text AS held FROM member_spend WHERE member_id = $1',
      [second.sa],
    );
    expect(held[0].held).toBe('0');
  });

  it('a member with no limit is admitted without a hold; a budget set afterwards applies to the very next request', async () => {
    const free = await serviceAccountKey(owner, owner.org, 'inference');
    const call = () =>
      t.http
        .post('/inference/openai/v1/chat/completions')
        .set('authorization', bearer(free.key))
        .send({ model: 'small', max_tokens: 10, messages: [{ role: 'user', content: 'x' }] });
    upstream.script(
      { text: 'ok', usage: { input: 1, output: 1 } },
      { text: 'ok', usage: { input: 1, output: 1 } },
    );
    expect((await call()).status).toBe(200);
    expect((await call()).status).toBe(200);
    const set = await owner
      .put(`/console/api/v1/budgets/members/${free.sa}`, { budget_dollars: 0 })
      .set('x-org-id', owner.org);
    expect(set.status).toBe(204);
    const refused = await call();
    expect(refused.status).toBe(402);
    expect(refused.body.error.code).toBe('UserLimitError');
    expect(refused.body.error.message).toContain('your monthly budget of $0.00 is used up');
    expect(await spent(free.sa)).toBe(2n * 300n);
  });

  it("the whole workspace's monthly budget holds across its members: WorkspaceLimitError past it", async () => {
    const team = await signup(t);
    const [a, b] = [
      await serviceAccountKey(team, team.org, 'inference'),
      await serviceAccountKey(team, team.org, 'inference'),
    ];
    const budget = (body: object) =>
      team.put('/console/api/v1/budgets/workspace', body).set('x-org-id', team.org);
    const bad = await budget({ budget_dollars: -1 });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toContain('budget_dollars');
    // Worst case per request: 1000 x 200 micro-cents plus the input estimate; $0.02 fits 9 of them at most.
    expect((await budget({ budget_dollars: 0.02 })).status).toBe(204);
    upstream.answerUnstreamed = true;
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    upstream.script(
      ...Array.from({ length: 60 }, () => ({ text: 'ok', usage: { input: 10, output: 10 }, until: gate })),
    );
    const forwardedBefore = upstream.requests.length;
    let refusedSoFar = 0;
    const pending = Array.from({ length: 60 }, (_, i) =>
      t.http
        .post('/inference/openai/v1/chat/completions')
        .set('authorization', bearer((i % 2 ? a : b).key))
        .send({ model: 'small', max_tokens: 1000, messages: [{ role: 'user', content: 'x' }] })
        .then((res) => {
          if (res.status === 402) refusedSoFar++;
          return res;
        }),
    );
    for (let i = 0; i < 1_500 && upstream.requests.length - forwardedBefore + refusedSoFar < 60; i++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    release();
    const results = await Promise.all(pending);
    upstream.dropPending();
    const admitted = results.filter((res) => res.status === 200).length;
    const refused = results.filter((res) => res.status === 402);
    expect(admitted + refused.length).toBe(60);
    expect(admitted).toBeGreaterThan(0);
    expect(BigInt(admitted) * 200_000n).toBeLessThanOrEqual(2_000_000n);
    expect(refused[0].body.error).toMatchObject({ code: 'WorkspaceLimitError', type: 'insufficient_quota' });
    expect(refused[0].body.resets_at).toMatch(/^\d{4}-\d{2}-01T00:00:00.000Z$/);
    expect(refused[0].body.error.message).toContain("workspace's monthly budget");

    const expected = BigInt(admitted) * (10n * 100n + 10n * 200n);
    let status = await team.get('/console/api/v1/budgets/workspace').set('x-org-id', team.org);
    for (let i = 0; i < 50 && status.body.spent_micro_cents !== String(expected); i++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      status = await team.get('/console/api/v1/budgets/workspace').set('x-org-id', team.org);
    }
    expect(status.body).toMatchObject({
      limit_micro_cents: '2000000',
      spent_micro_cents: String(expected),
      exceeded: false,
    });
    const held = await query(
      t.databaseUrl!,
      'SELECT held_micro_cents::text AS held FROM workspace_spend WHERE workspace_id = $1',
      [team.org],
    );
    expect(held[0].held).toBe('0');
    const audit = await team.get(`/console/api/orgs/${team.org}/audit`);
    expect(JSON.stringify(audit.body)).toContain('budget.workspace_set');
    // Unlimited again: the same request is admitted.
    expect((await budget({ budget_dollars: null })).status).toBe(204);
    upstream.script({ text: 'ok', usage: { input: 1, output: 1 } });
    expect(
      (
        await t.http
          .post('/inference/openai/v1/chat/completions')
          .set('authorization', bearer(a.key))
          .send({ model: 'small', max_tokens: 4000, messages: [{ role: 'user', content: 'x' }] })
      ).status,
    ).toBe(200);
  });

  it('GET /console/api/orgs/{org}/usage sums the recorded usage by member, key, model and day', async () => {
    const total = BigInt(
      (
        await query(
          t.databaseUrl!,
          'SELECT sum(cost_micro_cents)::text AS t FROM usage WHERE workspace_id = $1',
          [owner.org],
        )
      )[0].t,
    );
    const sum = (rows: Array<{ spent_micro_cents: string }>) =>
      rows.reduce((acc, row) => acc + BigInt(row.spent_micro_cents), 0n);
    for (const group of ['member', 'key', 'model', 'day']) {
      const res = await owner.get(
        `/console/api/orgs/${owner.org}/usage?group_by=${group}&from=2000-01-01T00:00:00Z`,
      );
      expect(res.status).toBe(200);
      expect(res.body.group_by).toBe(group);
      expect(sum(res.body.data)).toBe(total);
    }
    const byModel = await owner.get(
      `/console/api/orgs/${owner.org}/usage?group_by=model&from=2000-01-01T00:00:00Z`,
    );
    const models = byModel.body.data.map((row: { key: string }) => row.key).sort();
    expect(models.filter((model: string) => !model.startsWith('conn_'))).toEqual([
      'claude/haiku',
      'responder/reason',
      'scripted/small',
    ]);
    expect(models.filter((model: string) => model.startsWith('conn_'))).toEqual([
      expect.stringMatching(/^conn_\w+\/team-model$/),
    ]);
    const byMember = await owner.get(
      `/console/api/orgs/${owner.org}/usage?group_by=member&from=2000-01-01T00:00:00Z`,
    );
    expect(byMember.body.data.find((row: { key: string }) => row.key === saId)).toMatchObject({
      requests: expect.any(Number),
    });
    const bad = await owner.get(`/console/api/orgs/${owner.org}/usage?group_by=week`);
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ field: 'group_by' });
  });

  it('/metrics counts gateway requests by outcome, tokens, cost, and the time the gateway adds', async () => {
    const res = await t.http.get('/metrics').set('authorization', 'Bearer gateway-metrics');
    expect(res.status).toBe(200);
    expect(res.text).toMatch(
      /outpost_gateway_requests_total\{schema="openai-chat",model="scripted\/small",outcome="answered"\} \d+/,
    );
    expect(res.text).toMatch(
      /outpost_gateway_requests_total\{schema="openai-chat",model="scripted\/small",outcome="budget_refused"\} \d+/,
    );
    expect(res.text).toMatch(/outpost_gateway_tokens_total\{model="claude\/haiku",kind="cache_read"\} 1000/);
    expect(res.text).toMatch(/outpost_gateway_cost_usd_total\{model="scripted\/small"\} [0-9.e-]+/);
    expect(res.text).toMatch(/outpost_gateway_added_seconds_count\{schema="anthropic"\} \d+/);
  });

  it('a revoked key is refused within a second by every server process on the database, though keys are cached', async () => {
    const other = await createTestApp({
      databaseUrl: t.databaseUrl,
      env: {
        OUTPOST_GATEWAY_CONFIG: catalogue(upstream),
        SCRIPTED_OPENAI_KEY: UPSTREAM_OPENAI_KEY,
        OUTPOST_SECRET_KEY: SECRET_KEY,
      },
    });
    try {
      const victim = await serviceAccountKey(owner, owner.org, 'inference');
      upstream.script({ text: 'ok', usage: { input: 1, output: 1 } });
      const viaOther = () =>
        other.http
          .post('/inference/openai/v1/chat/completions')
          .set('authorization', bearer(victim.key))
          .send({ model: 'small', messages: [{ role: 'user', content: 'x' }] });
      // Twice, so the second answer comes from the other process's credential cache.
      upstream.script({ text: 'ok', usage: { input: 1, output: 1 } });
      expect((await viaOther()).status).toBe(200);
      expect((await viaOther()).status).toBe(200);
      expect(
        (await owner.del(`/console/api/orgs/${owner.org}/service-accounts/${victim.sa}/keys/${victim.keyId}`))
          .status,
      ).toBe(204);
      const revokedAt = Date.now();
      let after = await viaOther();
      while (after.status !== 401 && Date.now() - revokedAt < 1_000) {
        await new Promise((resolve) => setTimeout(resolve, 20));
        after = await viaOther();
      }
      expect(after.status).toBe(401);
      expect(after.body.error.type).toBe('authentication_error');
      expect(Date.now() - revokedAt).toBeLessThan(1_000);
    } finally {
      await other.close();
    }
  });
});

describe('OUTPOST_GATEWAY_CONFIG is checked at start-up', () => {
  it.each([
    ['providers: 3', 'OUTPOST_GATEWAY_CONFIG file must have a `providers` map'],
    [
      'providers:\n  p:\n    base_url: ftp://x\n    schema: openai-chat\n    api_key_env: K\n    models: {}',
      'providers.p.base_url must be an http(s) URL',
    ],
    [
      'providers:\n  p:\n    base_url: http://x\n    schema: grpc\n    api_key_env: K\n    models: {}',
      'providers.p.schema must be one of openai-chat, openai-responses, anthropic',
    ],
    [
      'providers:\n  p:\n    base_url: http://x\n    schema: anthropic\n    api_key_env: K\n    models:\n      mystery: {}',
      'providers.p.models.mystery.prices is needed',
    ],
  ])('%j: `outpost serve` stops with one line', async (text, message) => {
    const dir = mkdtempSync(join(tmpdir(), 'outpost-gateway-bad-'));
    writeFileSync(join(dir, 'g.yaml'), text);
    const server = startServer({
      PORT: String(await freePort()),
      DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/never_reached',
      OUTPOST_DATA_DIR: dir,
      OUTPOST_SURFACES: 'console,inference',
      OUTPOST_GATEWAY_CONFIG: join(dir, 'g.yaml'),
    });
    expect(await server.exited).toBe(1);
    const output = server.output().trim();
    expect(output.split('\n')).toHaveLength(1);
    expect(output).toMatch(/^outpost: invalid configuration: OUTPOST_GATEWAY_CONFIG /);
    expect(output).toContain(message);
  });
});
