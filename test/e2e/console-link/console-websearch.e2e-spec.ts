import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Person, signup } from '../../helpers/console';
import { approve } from '../../helpers/device';
import { eventually } from '../../helpers/eventually';
import { runLogin } from '../../helpers/outpost-cli';
import { projectDir } from '../../helpers/project-dir';
import { api, EventLog, providerConfig } from '../../helpers/prompt';
import { ScriptedModelServer } from '../../helpers/scripted-model-server';
import { ScriptedSearch } from '../../helpers/scripted-search';
import { createTestApp, TestApp } from '../../helpers/test-app';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** $20 per 1,000 searches. */
const SEARCH_COST = 2_000_000n;

/**
 * A console whose workspace enables web search (a SearXNG provider on loopback), and an instance signed in to it
 * with `outpost login` (a process): the agent's websearch tool searches through the console's gateway with the
 * instance's device token, billed to the person.
 */
describe('websearch through the console an instance is signed in to', () => {
  let model: ScriptedModelServer;
  let search: ScriptedSearch;
  let consoleApp: TestApp;
  let instance: TestApp;
  let owner: Person;
  let project: string;

  const spent = async () => {
    const res = await owner.get('/console/api/v1/budgets/members').set('x-org-id', owner.org);
    return BigInt(res.body.find((row: { user_id: string }) => row.user_id === owner.id).spent_micro_cents);
  };
  /** One prompt whose model calls websearch, then answers: the offered tools and the tool's result. */
  const searchThroughModel = async (callId: string) => {
    const a = api(instance);
    const log = new EventLog(instance);
    const sessionID = await a.createSession(project);
    const first = model.requests.length;
    model.script(
      { toolCalls: [{ id: callId, name: 'websearch', input: { query: 'outpost console' } }] },
      { text: 'Done.' },
    );
    const idle = log.idle(sessionID);
    await a.prompt(sessionID, { text: 'search the web' });
    await idle;
    const offered = ((model.requests[first].body.tools ?? []) as Json[]).map((tool) => tool.function.name);
    const tool = (model.requests.at(-1)!.body.messages as Json[]).find((m) => m.tool_call_id === callId);
    return { offered: offered as string[], result: String(tool?.content) };
  };

  beforeAll(async () => {
    model = await ScriptedModelServer.start();
    search = await ScriptedSearch.start();
    consoleApp = await createTestApp({
      env: {
        OUTPOST_SURFACES: 'console,inference',
        OUTPOST_CONNECTIONS_ALLOW: '127.0.0.1',
        OUTPOST_SECRET_KEY: 'console-websearch-secret-0123456789',
      },
    });
    owner = await signup(consoleApp);
    const provider = await owner.post(`/console/api/orgs/${owner.org}/search-providers`, {
      kind: 'searxng',
      base_url: search.baseUrl('searxng'),
      price_per_1000: 20,
    });
    expect(provider.status).toBe(201);
    const config = await owner.put(`/console/api/orgs/${owner.org}/config`, {
      websearch: { providerID: provider.body.id },
    });
    expect(config.status).toBe(200);
    const dataDir = mkdtempSync(join(tmpdir(), 'outpost-websearch-linked-'));
    const login = runLogin(dataDir, consoleApp.url);
    await approve(consoleApp, owner, await login.code, owner.org);
    expect(await login.exited).toBe(0);
    instance = await createTestApp({
      dataDir,
      env: { OUTPOST_CONSOLE_POLL_MS: '300', OUTPOST_CONNECTIONS_ALLOW: '127.0.0.1' },
    });
    // The model is the instance's own; only the search goes through the console.
    project = projectDir({ 'outpost.json': providerConfig(model) });
  });
  afterAll(async () => {
    await instance?.close();
    await consoleApp?.close();
    await model?.close();
    await search?.close();
  });

  it("the tool is offered, searches through the console's gateway and is billed to the person", async () => {
    const before = await spent();
    const { offered, result } = await searchThroughModel('call_1');
    expect(offered).toContain('websearch');
    expect(result).toContain('1. First result\n   https://example.com/first\n   The first snippet.');
    expect(search.requests.at(-1)!.query.get('q')).toBe('outpost console');
    expect(await eventually(spent, (value) => value === before + SEARCH_COST)).toBe(before + SEARCH_COST);
    const log = await eventually(
      () => owner.get(`/console/api/orgs/${owner.org}/usage/requests?member=${owner.id}`),
      (res) => res.body.data?.some((row: { route: string }) => row.route === '/inference/v1/search'),
    );
    expect(
      log.body.data.find((row: { route: string }) => row.route === '/inference/v1/search'),
    ).toMatchObject({
      member: owner.id,
      status: 200,
      cost_micro_cents: SEARCH_COST.toString(),
    });
  });

  it("a budget that cannot pay is the gateway's 402, which the model reads as the tool's error", async () => {
    const set = await owner
      .put(`/console/api/v1/budgets/members/${owner.id}`, { budget_dollars: 0 })
      .set('x-org-id', owner.org);
    expect(set.status).toBeLessThan(300);
    const before = search.requests.length;
    const { result } = await searchThroughModel('call_2');
    expect(result).toContain('402');
    expect(result).toContain('monthly budget');
    expect(search.requests.length).toBe(before);
  });

  it('web search disabled on the console: the tool disappears within the poll interval', async () => {
    await owner.put(`/console/api/orgs/${owner.org}/config`, { websearch: null });
    const offered = await eventually(
      async () => (await searchThroughModel('call_3')).offered,
      (tools) => !tools.includes('websearch'),
    );
    expect(offered).not.toContain('websearch');
  });
});
