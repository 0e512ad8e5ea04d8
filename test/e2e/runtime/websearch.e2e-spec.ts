import { projectDir } from '../../helpers/project-dir';
import { Api, EventLog, providerConfig, startScripted, stopScripted } from '../../helpers/prompt';
import { ScriptedModelServer } from '../../helpers/scripted-model-server';
import { SEARCH_KEYS, ScriptedSearch } from '../../helpers/scripted-search';
import { TestApp } from '../../helpers/test-app';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const KEY_VARIABLE = 'OUTPOST_TEST_BRAVE_SEARCH_KEY';

describe("the agent's websearch tool with a provider in the location's config", () => {
  let t: TestApp;
  let server: ScriptedModelServer;
  let log: EventLog;
  let a: Api;
  let search: ScriptedSearch;

  beforeAll(async () => {
    ({ t, server, log, a } = await startScripted({ env: { OUTPOST_CONNECTIONS_ALLOW: '127.0.0.1' } }));
    search = await ScriptedSearch.start();
    process.env[KEY_VARIABLE] = SEARCH_KEYS.brave;
  });
  afterAll(async () => {
    delete process.env[KEY_VARIABLE];
    await stopScripted({ t, server });
    await search.close();
  });

  /** One prompt whose model calls websearch once, then answers: the offered tools and what the tool gave back. */
  async function searchThroughModel(websearch?: object) {
    const project = projectDir({ 'outpost.json': providerConfig(server, websearch ? { websearch } : {}) });
    const sessionID = await a.createSession(project);
    const first = server.requests.length;
    server.script(
      {
        toolCalls: [{ id: 'call_s', name: 'websearch', input: { query: 'outpost gateway', max_results: 2 } }],
      },
      { text: 'Done.' },
    );
    await a.prompt(sessionID, { text: 'search the web' });
    await log.idle(sessionID);
    const offered = ((server.requests[first].body.tools ?? []) as Json[]).map((tool) => tool.function.name);
    const tool = (server.requests.at(-1)!.body.messages as Json[]).find((m) => m.tool_call_id === 'call_s');
    return { offered: offered as string[], result: String(tool?.content) };
  }

  it('SearXNG: the model gets numbered titles, URLs and snippets in its next request', async () => {
    const { offered, result } = await searchThroughModel({
      provider: 'searxng',
      baseURL: search.baseUrl('searxng'),
    });
    expect(offered).toContain('websearch');
    expect(result).toContain('1. First result\n   https://example.com/first\n   The first snippet.');
    expect(result).toContain('2. Second result\n   https://example.com/second');
    expect(result).toContain('webfetch');
    expect(search.requests.at(-1)).toMatchObject({ provider: 'searxng', path: '/search' });
    expect(search.requests.at(-1)!.query.get('q')).toBe('outpost gateway');
  });

  it('Brave with its key from {env:NAME}: sent in X-Subscription-Token, never in the transcript', async () => {
    const { result } = await searchThroughModel({
      provider: 'brave',
      baseURL: search.baseUrl('brave'),
      apiKey: `{env:${KEY_VARIABLE}}`,
    });
    expect(result).toContain('1. First result');
    expect(search.requests.at(-1)!.headers['x-subscription-token']).toBe(SEARCH_KEYS.brave);
    expect(search.requests.at(-1)!.query.get('count')).toBe('2');
    expect(JSON.stringify(server.requests.at(-1)!.body)).not.toContain(SEARCH_KEYS.brave);
  });

  it('without a websearch provider the tool is not offered', async () => {
    const { offered } = await searchThroughModel();
    expect(offered).not.toContain('websearch');
    expect(offered).toContain('webfetch');
  });

  it('a base URL inside the network that OUTPOST_CONNECTIONS_ALLOW does not name is refused, and the model told why', async () => {
    const before = search.requests.length;
    const { result } = await searchThroughModel({ provider: 'searxng', baseURL: 'http://[::1]:9/searxng' });
    expect(result).toContain('OUTPOST_CONNECTIONS_ALLOW');
    expect(search.requests.length).toBe(before);
  });

  it('a websearch denied by the permission rules is not run', async () => {
    const before = search.requests.length;
    const project = projectDir({
      'outpost.json': providerConfig(server, {
        websearch: { provider: 'searxng', baseURL: search.baseUrl('searxng') },
        permissions: [{ action: 'websearch', resource: 'secret*', effect: 'deny' }],
      }),
    });
    const sessionID = await a.createSession(project);
    server.script(
      { toolCalls: [{ id: 'call_d', name: 'websearch', input: { query: 'secret plans' } }] },
      { text: 'Done.' },
    );
    await a.prompt(sessionID, { text: 'search' });
    await log.idle(sessionID);
    const tool = (server.requests.at(-1)!.body.messages as Json[]).find((m) => m.tool_call_id === 'call_d');
    expect(String(tool?.content)).toContain('Permission denied: websearch secret plans');
    expect(search.requests.length).toBe(before);
  });
});
