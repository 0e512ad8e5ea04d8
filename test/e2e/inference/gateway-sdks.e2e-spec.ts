/**
 * The official OpenAI and Anthropic SDKs through the gateway: chat completions, the Responses API and messages,
 * streamed or not, priced from the catalogue and billed to the caller; what a workspace's policies and its own
 * connections (bring your own key) let a key call; a member's budget applied from the very next request; and what
 * the usage report and /metrics then show of it all.
 */
import OpenAI from 'openai';
import request from 'supertest';
import { bearer, serviceAccountKey, signup } from '../../helpers/console';
import { whenSeen } from '../../helpers/fleet';
import { query } from '../../helpers/test-database';
import { anthropic, openai, spent, spentBecomes, useGatewayApp } from './gateway-fixture';
import { UPSTREAM_ANTHROPIC_KEY, UPSTREAM_OPENAI_KEY } from './gateway-fixture';
// Set before the tests by useGatewayApp().
import { key, owner, saId, t, upstream } from './gateway-fixture';

describe('the inference gateway (/inference/*) with the official SDKs', () => {
  useGatewayApp();

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
    // Behind a balancer the other nodes drop their cached policies within milliseconds (docs/operations.md).
    const denied = await whenSeen(call, (res) => !(res instanceof Error) && res.status === 403);
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
    const allowed = (res: request.Response | Error) => !(res instanceof Error) && res.status !== 403;
    expect((await whenSeen(call, allowed)).status).toBe(200);
    const other = await t.http
      .post('/inference/anthropic/v1/messages')
      .set('x-api-key', key)
      .send({ model: 'claude/claude-haiku-4-5', max_tokens: 5, messages: [{ role: 'user', content: 'x' }] });
    expect(other.status).toBe(403);
    await setPolicies([]);
    upstream.script({ text: 'open again', usage: { input: 1, output: 1 } });
    expect((await whenSeen(call, allowed)).status).toBe(200);
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
    // A policy changed on one node reaches the others' caches a moment later (their notice of the change).
    const claudeListed = (outcome: string[] | Error) =>
      !(outcome instanceof Error) && outcome.includes('claude/haiku');
    expect(
      await whenSeen(
        () => ids(key),
        (outcome) => !claudeListed(outcome),
      ),
    ).toEqual([`${connection}/team-model`, 'responder/reason', 'scripted/small']);
    expect(await ids(strangerKey.key)).toEqual([
      'claude/claude-haiku-4-5',
      'claude/haiku',
      'responder/reason',
      'scripted/small',
    ]);
    await owner.put(`/console/api/orgs/${owner.org}/config`, { policies: [] });
    expect(claudeListed(await whenSeen(() => ids(key), claudeListed))).toBe(true);
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
    // The very next request on this node; behind a balancer the others drop their cached limits within milliseconds.
    const refused = await whenSeen(call, (res) => !(res instanceof Error) && res.status === 402);
    expect(refused.status).toBe(402);
    expect(refused.body.error.code).toBe('UserLimitError');
    expect(refused.body.error.message).toContain('your monthly budget of $0.00 is used up');
    expect(await spent(free.sa)).toBe(2n * 300n);
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
    // Each node counts what it served (Prometheus scrapes every node): the fleet's figures are their sums.
    const scraped = await Promise.all(
      t.nodes.map((node) => request(node.url).get('/metrics').set('authorization', 'Bearer gateway-metrics')),
    );
    for (const res of scraped) expect(res.status).toBe(200);
    const res = { text: scraped.map((one) => one.text).join('\n') };
    const total = (series: string) =>
      scraped.reduce(
        (sum, one) => sum + Number(one.text.match(new RegExp(`^${series} (\\S+)$`, 'm'))?.[1] ?? 0),
        0,
      );
    expect(total('outpost_gateway_tokens_total\\{model="claude/haiku",kind="cache_read"\\}')).toBe(1000);
    expect(res.text).toMatch(
      /outpost_gateway_requests_total\{schema="openai-chat",model="scripted\/small",outcome="answered"\} \d+/,
    );
    expect(res.text).toMatch(
      /outpost_gateway_requests_total\{schema="openai-chat",model="scripted\/small",outcome="budget_refused"\} \d+/,
    );
    expect(res.text).toMatch(/outpost_gateway_cost_usd_total\{model="scripted\/small"\} [0-9.e-]+/);
    expect(res.text).toMatch(/outpost_gateway_added_seconds_count\{schema="anthropic"\} \d+/);
  });
});
