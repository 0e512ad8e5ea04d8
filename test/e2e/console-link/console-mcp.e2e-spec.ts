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
import { basic, createTestApp, TestApp } from '../../helpers/test-app';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** $20 per 1,000 searches. */
const SEARCH_COST = 2_000_000n;

/**
 * A console whose workspace enables web search, and an instance signed in to it with `outpost login` (a process):
 * with no hand edit, the instance's agent gets the console's MCP server (`outpost`, listed in the workspace config
 * with `{env:OPENCODE_CONSOLE_TOKEN}`, which the instance fills with its device token) and its tools; a search
 * through it is in the console's request log and the person's budget.
 */
describe("the console's MCP server in an instance signed in to the console", () => {
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
  /** One prompt whose model calls `tool`, then answers: the offered tools and the tool's result. */
  const callThroughModel = async (callId: string, tool: string, input: Json) => {
    const a = api(instance);
    const log = new EventLog(instance);
    const sessionID = await a.createSession(project);
    const first = model.requests.length;
    model.script({ toolCalls: [{ id: callId, name: tool, input }] }, { text: 'Done.' });
    const idle = log.idle(sessionID);
    await a.prompt(sessionID, { text: 'use the console' });
    await idle;
    const offered = ((model.requests[first].body.tools ?? []) as Json[]).map((t) => t.function.name);
    const result = (model.requests.at(-1)!.body.messages as Json[]).find((m) => m.tool_call_id === callId);
    return { offered: offered as string[], result: String(result?.content) };
  };

  beforeAll(async () => {
    model = await ScriptedModelServer.start();
    search = await ScriptedSearch.start();
    consoleApp = await createTestApp({
      env: {
        OUTPOST_SURFACES: 'console,inference',
        OUTPOST_CONNECTIONS_ALLOW: '127.0.0.1',
        OUTPOST_SECRET_KEY: 'console-mcp-linked-secret-0123456789',
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
    const dataDir = mkdtempSync(join(tmpdir(), 'outpost-console-mcp-linked-'));
    const login = runLogin(dataDir, consoleApp.url);
    await approve(consoleApp, owner, await login.code, owner.org);
    expect(await login.exited).toBe(0);
    instance = await createTestApp({
      dataDir,
      env: { OUTPOST_CONSOLE_POLL_MS: '300', OUTPOST_CONNECTIONS_ALLOW: '127.0.0.1' },
    });
    // The model is the instance's own; the console gives the MCP server.
    project = projectDir({ 'outpost.json': providerConfig(model) });
  });
  afterAll(async () => {
    await instance?.close();
    await consoleApp?.close();
    await model?.close();
    await search?.close();
  });

  it('the server is connected with no hand edit, and its tools are offered to the model', async () => {
    const status = await eventually(
      async () =>
        (
          await instance.http
            .get(`/mcp?directory=${encodeURIComponent(project)}`)
            .set('authorization', basic())
        ).body,
      (body) => body?.outpost?.status === 'connected',
    );
    expect(status.outpost).toEqual({ status: 'connected' });
    const { offered } = await callThroughModel('call_0', 'outpost_workspace_usage', {});
    expect(offered).toEqual(
      expect.arrayContaining(['outpost_websearch', 'outpost_workspace_usage', 'outpost_workspace_models']),
    );
  });

  it('outpost_websearch searches through the console: in its request log and the person’s budget', async () => {
    const before = await spent();
    const { result } = await callThroughModel('call_1', 'outpost_websearch', { query: 'console mcp' });
    expect(result).toContain('1. First result\n   https://example.com/first\n   The first snippet.');
    expect(search.requests.at(-1)!.query.get('q')).toBe('console mcp');
    expect(await eventually(spent, (value) => value === before + SEARCH_COST)).toBe(before + SEARCH_COST);
    const log = await eventually(
      () => owner.get(`/console/api/orgs/${owner.org}/usage/requests?member=${owner.id}`),
      (res) => res.body.data?.some((row: Json) => row.route === '/console/mcp'),
    );
    expect(log.body.data.find((row: Json) => row.route === '/console/mcp')).toMatchObject({
      member: owner.id,
      status: 200,
      cost_micro_cents: SEARCH_COST.toString(),
    });
  });

  it('outpost_workspace_usage tells the model what the person spent this month', async () => {
    const now = await spent();
    const { result } = await callThroughModel('call_2', 'outpost_workspace_usage', {});
    expect(JSON.parse(result)).toMatchObject({ currency: 'USD', spent: (Number(now) / 1e8).toString() });
  });
});
