import request from 'supertest';
import { bearer, Person, serviceAccountKey, signup } from '../../helpers/console';
import { eventually } from '../../helpers/eventually';
import { SEARCH_KEYS, ScriptedSearch } from '../../helpers/scripted-search';
import { createTestApp, TestApp } from '../../helpers/test-app';

/** $20 per 1,000 searches: 2,000,000 micro-cents a search. */
const PRICE_PER_1000 = 20;
const SEARCH_COST = '2000000';

describe('POST /inference/v1/search: a web search as a gateway call', () => {
  let t: TestApp;
  let upstream: ScriptedSearch;
  let owner: Person;
  const providers: Record<string, string> = {};

  beforeAll(async () => {
    upstream = await ScriptedSearch.start();
    t = await createTestApp({
      env: {
        OUTPOST_CONNECTIONS_ALLOW: '127.0.0.1',
        OUTPOST_SECRET_KEY: 'search-test-secret-0123456789abcdef',
        OUTPOST_METRICS_TOKEN: 'search-metrics',
      },
    });
    owner = await signup(t);
    for (const kind of ['brave', 'tavily', 'exa', 'searxng'] as const) {
      const res = await owner.post(`/console/api/orgs/${owner.org}/search-providers`, {
        kind,
        base_url: upstream.baseUrl(kind),
        ...(kind === 'searxng' ? {} : { api_key: SEARCH_KEYS[kind] }),
        price_per_1000: PRICE_PER_1000,
      });
      expect([kind, res.status]).toEqual([kind, 201]);
      providers[kind] = res.body.id as string;
    }
  });
  afterAll(async () => {
    await t?.close();
    await upstream?.close();
  });

  const enable = async (kind: string) => {
    const res = await owner.put(`/console/api/orgs/${owner.org}/config`, {
      websearch: { providerID: providers[kind] },
    });
    expect(res.status).toBe(200);
  };
  const search = (key: string, body: object) =>
    t.http.post('/inference/v1/search').set('authorization', bearer(key)).send(body);

  it.each(['brave', 'tavily', 'exa', 'searxng'])(
    '%s: asked in its documented shape, its answer given back as {title, url, snippet}',
    async (kind) => {
      await enable(kind);
      const { key } = await serviceAccountKey(owner, owner.org, 'inference');
      const res = await search(key, { query: `outpost ${kind}`, max_results: 2 });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ results: upstream.results });
      const asked = upstream.requests.at(-1)!;
      expect(asked.provider).toBe(kind);
      if (kind === 'brave')
        expect([asked.query.get('q'), asked.query.get('count')]).toEqual(['outpost brave', '2']);
      if (kind === 'tavily') expect(asked.body).toEqual({ query: 'outpost tavily', max_results: 2 });
      if (kind === 'exa') expect(asked.body).toMatchObject({ query: 'outpost exa', numResults: 2 });
      if (kind === 'searxng') expect(asked.query.get('format')).toBe('json');
    },
  );

  it('is logged and billed at the provider’s price per 1,000 searches, to the key and its member', async () => {
    await enable('searxng');
    const { key, keyId, sa } = await serviceAccountKey(owner, owner.org, 'inference');
    expect((await search(key, { query: 'billed' })).status).toBe(200);
    const model = `search/${providers.searxng}`;
    const log = await eventually(
      () => owner.get(`/console/api/orgs/${owner.org}/usage/requests?key=${keyId}`),
      (res) => res.body.data?.length >= 1,
    );
    expect(log.body.data[0]).toMatchObject({
      route: '/inference/v1/search',
      model,
      served_by: model,
      status: 200,
      outcome: 'answered',
      cost_micro_cents: SEARCH_COST,
      member: sa,
      key: keyId,
    });
    const usage = await eventually(
      () => owner.get(`/console/api/orgs/${owner.org}/usage?group_by=key&from=2000-01-01T00:00:00Z`),
      (res) => res.body.data?.some((row: { key: string }) => row.key === keyId),
    );
    expect(usage.body.data.find((row: { key: string }) => row.key === keyId)).toMatchObject({
      requests: 1,
      spent_micro_cents: SEARCH_COST,
    });
    const members = await owner.get(
      `/console/api/orgs/${owner.org}/usage?group_by=member&from=2000-01-01T00:00:00Z`,
    );
    expect(members.body.data.find((row: { key: string }) => row.key === sa)).toMatchObject({
      spent_micro_cents: SEARCH_COST,
    });
  });

  it('a budget that cannot pay for one search is a 402 in the OpenAI error shape; nothing is asked upstream', async () => {
    await enable('searxng');
    const { key, keyId, sa } = await serviceAccountKey(owner, owner.org, 'inference');
    const patched = await owner.patch(`/console/api/orgs/${owner.org}/service-accounts/${sa}/keys/${keyId}`, {
      monthly_budget_dollars: 0.01,
    });
    expect(patched.status).toBe(200);
    const before = upstream.requests.length;
    const res = await search(key, { query: 'too dear' });
    expect(res.status).toBe(402);
    expect(res.headers['x-should-retry']).toBe('false');
    expect(res.body.error).toMatchObject({ type: 'insufficient_quota' });
    expect(res.body.error.message).toContain("this key's monthly budget has $0.01 left");
    // A search has no output to lower: the advice is the budget's, never max_tokens.
    expect(res.body.error.message).not.toContain('max_tokens');
    expect(res.body.error.message).toContain('Ask a workspace owner or admin to raise the budget');
    expect(upstream.requests.length).toBe(before);
    const log = await eventually(
      () => owner.get(`/console/api/orgs/${owner.org}/usage/requests?key=${keyId}`),
      (answer) => answer.body.data?.length >= 1,
    );
    expect(log.body.data[0]).toMatchObject({ status: 402, outcome: 'budget_refused', cost_micro_cents: '0' });
  });

  it("searches are counted in the gateway's metrics: schema search, by outcome, and their cost", async () => {
    await enable('searxng');
    const model = `search/${providers.searxng}`;
    const one = (text: string, name: string) =>
      Number(text.match(new RegExp(`^${name.replace(/[{}/]/g, '\\$&')} (\\S+)$`, 'm'))?.[1] ?? 0);
    // Each node counts what it served (Prometheus scrapes every node): the fleet's figures are their sums.
    const scrape = async () => {
      const texts = await Promise.all(
        t.nodes.map(async (node) => {
          const res = await request(node.url).get('/metrics').set('authorization', 'Bearer search-metrics');
          expect(res.status).toBe(200);
          return res.text;
        }),
      );
      const total = (name: string) => texts.reduce((sum, text) => sum + one(text, name), 0);
      return {
        answered: total(
          `outpost_gateway_requests_total{schema="search",model="${model}",outcome="answered"}`,
        ),
        refused: total(
          `outpost_gateway_requests_total{schema="search",model="${model}",outcome="budget_refused"}`,
        ),
        cost: total(`outpost_gateway_cost_usd_total{model="${model}"}`),
      };
    };
    const before = await scrape();
    // A key whose budget pays for exactly one search: the first is answered, the second refused.
    const { key, keyId, sa } = await serviceAccountKey(owner, owner.org, 'inference');
    const patched = await owner.patch(`/console/api/orgs/${owner.org}/service-accounts/${sa}/keys/${keyId}`, {
      monthly_budget_dollars: 0.02,
    });
    expect(patched.status).toBe(200);
    expect((await search(key, { query: 'counted' })).status).toBe(200);
    expect((await search(key, { query: 'refused' })).status).toBe(402);
    const after = await scrape();
    expect(after.answered - before.answered).toBe(1);
    expect(after.refused - before.refused).toBe(1);
    expect(after.cost - before.cost).toBeCloseTo(0.02, 9);
  });

  it('a key whose allowed_models do not name search/<provider id> gets 403; one that names it searches', async () => {
    await enable('searxng');
    const { sa } = await serviceAccountKey(owner, owner.org, 'inference');
    const create = async (allowed: string[]) =>
      (
        await owner.post(`/console/api/orgs/${owner.org}/service-accounts/${sa}/keys`, {
          name: 'limited',
          permission: 'inference',
          allowed_models: allowed,
        })
      ).body.key as string;
    const refused = await search(await create(['openai/gpt-4o']), { query: 'not mine' });
    expect(refused.status).toBe(403);
    expect(refused.body.error.message).toContain(`search/${providers.searxng}`);
    const allowed = await search(await create([`search/${providers.searxng}`]), { query: 'mine' });
    expect(allowed.status).toBe(200);
  });

  it('a bad body is a 400 naming the field; no key is a 401; a workspace without websearch is a 404', async () => {
    const { key } = await serviceAccountKey(owner, owner.org, 'inference');
    for (const [body, field] of [
      [{}, 'query'],
      [{ query: '' }, 'query'],
      [{ query: 'x', max_results: 0 }, 'max_results'],
      [{ query: 'x', max_results: 'five' }, 'max_results'],
    ] as const) {
      const res = await search(key, body);
      expect([JSON.stringify(body), res.status]).toEqual([JSON.stringify(body), 400]);
      expect(res.body.error.message).toContain(field);
    }
    expect((await t.http.post('/inference/v1/search').send({ query: 'x' })).status).toBe(401);
    const other = await signup(t);
    const { key: otherKey } = await serviceAccountKey(other, other.org, 'inference');
    const none = await search(otherKey, { query: 'x' });
    expect(none.status).toBe(404);
    expect(none.body.error.message).toContain('websearch.providerID');
  });

  it("a provider refusing the workspace's key is a 502 that does not pass its words on", async () => {
    const res = await owner.post(`/console/api/orgs/${owner.org}/search-providers`, {
      kind: 'brave',
      base_url: upstream.baseUrl('brave'),
      api_key: 'brave-wrong-key-000',
    });
    await owner.put(`/console/api/orgs/${owner.org}/config`, { websearch: { providerID: res.body.id } });
    const { key } = await serviceAccountKey(owner, owner.org, 'inference');
    const failed = await search(key, { query: 'x' });
    expect(failed.status).toBe(502);
    expect(failed.body.error.message).toContain("refused the gateway's key (401)");
    expect(failed.text).not.toContain('invalid key');
    expect(failed.text).not.toContain('brave-wrong-key');
  });
});
