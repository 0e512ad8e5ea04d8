import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CallToolResult, ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { bearer, Person, serviceAccountKey, signup } from '../../helpers/console';
import { signInDevice } from '../../helpers/device';
import { eventually } from '../../helpers/eventually';
import { gatewayCatalogue } from '../../helpers/gateway-catalogue';
import { ScriptedSearch } from '../../helpers/scripted-search';
import { createTestApp, TestApp } from '../../helpers/test-app';

/** $20 per 1,000 searches: 2,000,000 micro-cents ($0.02) a search. */
const SEARCH_COST = '2000000';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/**
 * The console's own MCP server (`/console/mcp`) through the official SDK's client: the credentials of
 * `GET /console/api/v2/config`, its three tools, and `websearch` metered like `POST /inference/v1/search`.
 */
describe('the console MCP server at /console/mcp', () => {
  let t: TestApp;
  let search: ScriptedSearch;
  let owner: Person;
  let stranger: Person;
  let providerId: string;
  const clients: Client[] = [];

  beforeAll(async () => {
    search = await ScriptedSearch.start();
    const catalogue = gatewayCatalogue(`providers:
  up:
    base_url: http://127.0.0.1:9/v1
    schema: openai-chat
    api_key_env: UP_KEY
    models:
      small: { prices: { input: 1, output: 2 } }
      large: { prices: { input: 3, output: 15, cache_read: 0.3 } }
routes:
  smart:
    deployments: [up/small]
`);
    t = await createTestApp({
      env: {
        OUTPOST_GATEWAY_CONFIG: catalogue,
        UP_KEY: 'sk-up',
        OUTPOST_CONNECTIONS_ALLOW: '127.0.0.1',
        OUTPOST_SECRET_KEY: 'console-mcp-secret-0123456789abcdef',
      },
    });
    owner = await signup(t);
    stranger = await signup(t);
    const provider = await owner.post(`/console/api/orgs/${owner.org}/search-providers`, {
      kind: 'searxng',
      base_url: search.baseUrl('searxng'),
      price_per_1000: 20,
    });
    expect(provider.status).toBe(201);
    providerId = provider.body.id;
  });
  afterAll(async () => {
    await Promise.allSettled(clients.map((client) => client.close()));
    await t?.close();
    await search?.close();
  });

  const connect = async (headers: Record<string, string>) => {
    const client = new Client({ name: 'console-mcp-test', version: '1.0.0' });
    const transport = new StreamableHTTPClientTransport(new URL(`${t.url}/console/mcp`), {
      requestInit: { headers },
    });
    await client.connect(transport);
    clients.push(client);
    return client;
  };
  const deviceClient = async () =>
    connect({ authorization: bearer((await signInDevice(t, owner, owner.org)).access_token) });
  const toolNames = async (client: Client) => (await client.listTools()).tools.map((tool) => tool.name);
  const text = (result: unknown) => ((result as CallToolResult).content[0] as { text: string }).text;
  const enableSearch = async (on: boolean) => {
    const res = await owner.put(`/console/api/orgs/${owner.org}/config`, {
      websearch: on ? { providerID: providerId } : null,
    });
    expect(res.status).toBe(200);
  };
  const memberSpent = async () => {
    const res = await owner.get('/console/api/v1/budgets/members').set('x-org-id', owner.org);
    return res.body.find((row: { user_id: string }) => row.user_id === owner.id).spent_micro_cents as string;
  };
  const initialize = {
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'curl', version: '1' } },
  };
  const post = (body: object) =>
    t.http.post('/console/mcp').set('accept', 'application/json, text/event-stream').send(body);

  it('refuses a caller without credentials (401) and a person of another workspace (403)', async () => {
    const anonymous = await post(initialize);
    expect(anonymous.status).toBe(401);
    const token = (await stranger.post('/console/api/tokens', { name: 'script' })).body.token as string;
    const outsider = await post(initialize).set('authorization', bearer(token)).set('x-org-id', owner.org);
    expect(outsider.status).toBe(403);
    const noOrg = await post(initialize).set('authorization', bearer(token));
    expect(noOrg.status).toBe(400);
    expect(noOrg.body._tag).toBe('OrgRequired');
  });

  it('answers initialize in JSON; GET and DELETE are 405 (stateless)', async () => {
    const { key } = await serviceAccountKey(owner, owner.org, 'inference');
    const res = await post(initialize).set('authorization', bearer(key));
    expect(res.status).toBe(200);
    expect(res.body.result.serverInfo).toMatchObject({ name: 'outpost-console' });
    expect(res.body.result.capabilities).toEqual({ tools: {} });
    expect(res.headers['x-request-id']).toBeDefined();
    const stream = await t.http.get('/console/mcp').set('authorization', bearer(key));
    expect([stream.status, stream.headers.allow]).toEqual([405, 'POST']);
    expect((await t.http.delete('/console/mcp').set('authorization', bearer(key))).status).toBe(405);
  });

  it('lists websearch only while the workspace enables web search', async () => {
    await enableSearch(false);
    const client = await deviceClient();
    expect(await toolNames(client)).toEqual(['workspace_usage', 'workspace_models']);
    await enableSearch(true);
    expect(await toolNames(client)).toEqual(['websearch', 'workspace_usage', 'workspace_models']);
  });

  it('websearch searches through the gateway: results, a request log row, and the spend of the person', async () => {
    await enableSearch(true);
    const client = await deviceClient();
    const before = BigInt(await memberSpent());
    const result = await client.callTool({
      name: 'websearch',
      arguments: { query: 'outpost mcp', max_results: 2 },
    });
    expect(result.isError).toBeFalsy();
    expect(text(result)).toContain('1. First result\n   https://example.com/first\n   The first snippet.');
    expect(search.requests.at(-1)!.query.get('q')).toBe('outpost mcp');
    const model = `search/${providerId}`;
    const log = await eventually(
      () => owner.get(`/console/api/orgs/${owner.org}/usage/requests?member=${owner.id}`),
      (res) => res.body.data?.some((row: Json) => row.model === model),
    );
    expect(log.body.data.find((row: Json) => row.model === model)).toMatchObject({
      route: '/console/mcp',
      status: 200,
      outcome: 'answered',
      cost_micro_cents: SEARCH_COST,
      member: owner.id,
    });
    const after = await eventually(memberSpent, (spent) => BigInt(spent) === before + BigInt(SEARCH_COST));
    expect(BigInt(after)).toBe(before + BigInt(SEARCH_COST));
  });

  it('workspace_usage gives the spend, the budget and what is left this month', async () => {
    const set = await owner
      .put(`/console/api/v1/budgets/members/${owner.id}`, { budget_dollars: 10 })
      .set('x-org-id', owner.org);
    expect(set.status).toBe(204);
    const client = await deviceClient();
    const spent = BigInt(await memberSpent());
    const result = await client.callTool({ name: 'workspace_usage', arguments: {} });
    const usage = result.structuredContent as Json;
    expect(usage).toMatchObject({
      currency: 'USD',
      spent: (Number(spent) / 1e8).toString(),
      budget: '10',
      budget_source: 'custom',
      remaining_limited_by: 'member',
    });
    expect(Number(usage.remaining)).toBeCloseTo(10 - Number(spent) / 1e8, 8);
    expect(new Date(usage.month_resets_at).getUTCDate()).toBe(1);
    expect(JSON.parse(text(result))).toEqual(usage);
  });

  it('workspace_models lists the models and routes with prices, narrowed to a key’s allowed_models', async () => {
    const client = await deviceClient();
    const all = (await client.callTool({ name: 'workspace_models', arguments: {} }))
      .structuredContent as Json;
    expect(all.models).toEqual([
      {
        id: 'up/small',
        provider: 'up',
        prices_per_million_tokens: { input: '1', output: '2', cache_read: '1', cache_write: '1' },
      },
      {
        id: 'up/large',
        provider: 'up',
        prices_per_million_tokens: { input: '3', output: '15', cache_read: '0.3', cache_write: '3' },
      },
      { id: 'smart', provider: 'route', serves: ['up/small'], prices_per_million_tokens: null },
    ]);
    const { key, keyId, sa } = await serviceAccountKey(owner, owner.org, 'inference');
    const patched = await owner.patch(`/console/api/orgs/${owner.org}/service-accounts/${sa}/keys/${keyId}`, {
      allowed_models: ['up/large'],
    });
    expect(patched.status).toBe(200);
    const keyed = await connect({ authorization: bearer(key) });
    const narrowed = (await keyed.callTool({ name: 'workspace_models', arguments: {} }))
      .structuredContent as Json;
    expect(narrowed.models.map((model: Json) => model.id)).toEqual(['up/large']);
  });

  it('bad arguments and unknown tools are MCP errors (InvalidParams), never a 500', async () => {
    await enableSearch(true);
    const client = await deviceClient();
    const before = search.requests.length;
    for (const [name, args, field] of [
      ['websearch', { query: 42 }, 'query'],
      ['websearch', { query: '' }, 'query'],
      ['websearch', { query: 'x', max_results: 500 }, 'max_results'],
      ['websearch', { query: 'x', extra: true }, 'extra'],
      ['workspace_usage', { month: 'last' }, 'month'],
      ['nope', {}, 'name'],
    ] as const) {
      const error = await client.callTool({ name, arguments: args }).then(
        () => undefined,
        (thrown: unknown) => thrown,
      );
      expect(error).toBeInstanceOf(McpError);
      expect([name, (error as McpError).code]).toEqual([name, ErrorCode.InvalidParams]);
      expect((error as McpError).message).toContain(field);
    }
    expect(search.requests.length).toBe(before);
    const raw = await post({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'websearch' } })
      .set('authorization', bearer((await serviceAccountKey(owner, owner.org, 'inference')).key))
      .set('mcp-protocol-version', '2025-06-18');
    expect(raw.status).toBe(200);
    expect(raw.body.error.code).toBe(ErrorCode.InvalidParams);
  });

  it('a budget that cannot pay for a search is the tool’s error with the 402, not a call upstream', async () => {
    await enableSearch(true);
    const set = await owner
      .put(`/console/api/v1/budgets/members/${owner.id}`, { budget_dollars: 0 })
      .set('x-org-id', owner.org);
    expect(set.status).toBe(204);
    const client = await deviceClient();
    const before = search.requests.length;
    const result = await client.callTool({ name: 'websearch', arguments: { query: 'too dear' } });
    expect(result.isError).toBe(true);
    expect(text(result)).toContain('(402)');
    expect(text(result)).toContain('monthly budget');
    expect(search.requests.length).toBe(before);
    await owner.del(`/console/api/v1/budgets/members/${owner.id}`).set('x-org-id', owner.org);
  });

  it('GET /console/api/v2/config lists the server for every member, beside the servers owners configure', async () => {
    const put = await owner.put(`/console/api/orgs/${owner.org}/config`, {
      mcp: { servers: { docs: { url: 'https://mcp.example.com/mcp' } } },
    });
    expect(put.status).toBe(200);
    const token = (await signInDevice(t, owner, owner.org)).access_token;
    const v2 = await t.http.get('/console/api/v2/config').set('authorization', bearer(token));
    expect(v2.status).toBe(200);
    expect(v2.body.mcp.servers).toEqual({
      docs: { type: 'remote', url: 'https://mcp.example.com/mcp' },
      outpost: {
        type: 'remote',
        url: `${t.url}/console/mcp`,
        headers: { Authorization: 'Bearer {env:OPENCODE_CONSOLE_TOKEN}', 'x-org-id': owner.org },
        oauth: false,
      },
    });
    // What opencode's CLI reads (`{ config }`): the same servers in its own `mcp` map.
    const cli = await t.http
      .get('/console/api/config')
      .set('authorization', bearer(token))
      .set('x-org-id', owner.org);
    expect(cli.body.config.mcp.outpost).toEqual(v2.body.mcp.servers.outpost);
    expect(cli.body.config.mcp.docs).toEqual({ type: 'remote', url: 'https://mcp.example.com/mcp' });
    // The header's reference, filled with the token as opencode fills it, is a credential the server takes.
    const filled = v2.body.mcp.servers.outpost.headers.Authorization.replace(
      '{env:OPENCODE_CONSOLE_TOKEN}',
      token,
    );
    const res = await post(initialize)
      .set('authorization', filled)
      .set('x-org-id', v2.body.mcp.servers.outpost.headers['x-org-id']);
    expect(res.status).toBe(200);
  });

  it("an owner's own server named outpost wins over the console's, and a PUT of the read document stores nothing new", async () => {
    const token = (await signInDevice(t, owner, owner.org)).access_token;
    const read = async () =>
      (await t.http.get('/console/api/v2/config').set('authorization', bearer(token))).body;
    const before = await read();
    // Sending back what was read (the console's server in it) changes nothing: the entry is offered, not stored.
    const back = await owner.put(`/console/api/orgs/${owner.org}/config`, { mcp: before.mcp });
    expect(back.status).toBe(200);
    expect(back.body.mcp).toEqual(before.mcp);
    const audit = await owner.get(`/console/api/orgs/${owner.org}/audit?action=config.updated`);
    const changes = audit.body.entries.length;
    await owner.put(`/console/api/orgs/${owner.org}/config`, { mcp: before.mcp });
    const again = await owner.get(`/console/api/orgs/${owner.org}/audit?action=config.updated`);
    expect(again.body.entries.length).toBe(changes);
    const mine = { type: 'remote', url: 'https://mine.example.com/mcp' };
    const put = await owner.put(`/console/api/orgs/${owner.org}/config`, {
      mcp: { servers: { ...before.mcp.servers, outpost: mine } },
    });
    expect(put.status).toBe(200);
    expect((await read()).mcp.servers.outpost).toEqual(mine);
  });
});
