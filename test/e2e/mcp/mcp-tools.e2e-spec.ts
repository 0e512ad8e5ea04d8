import { MCP_TEST_LOCAL as LOCAL } from '../../helpers/mcp-server';
import { RemoteMcp, startRemoteMcp, startSseMcp } from '../../helpers/mcp-remote';
import { projectDir } from '../../helpers/project-dir';
import { Api, EventLog, providerConfig, startScripted, stopScripted } from '../../helpers/prompt';
import { ScriptedModelServer } from '../../helpers/scripted-model-server';
import { TestApp } from '../../helpers/test-app';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** Runs one prompt whose model makes `calls`, then answers; the tool results it got back, by call id. */
async function callThroughModel(
  a: Api,
  log: EventLog,
  server: ScriptedModelServer,
  directory: string,
  calls: Array<{ name: string; input: Record<string, unknown> }>,
): Promise<{ results: string[]; offered: Json[] }> {
  const sessionID = await a.createSession(directory);
  const before = server.requests.length;
  server.script({ toolCalls: calls.map((call, i) => ({ id: `call_${i}`, ...call })) }, { text: 'Done.' });
  const res = await a.prompt(sessionID, { text: 'use the tools' });
  expect(res.status).toBe(200);
  await log.idle(sessionID);
  const messages = server.requests.at(-1)!.body.messages as Json[];
  const results = calls.map((_c, i) =>
    String(messages.find((m) => m.role === 'tool' && m.tool_call_id === `call_${i}`)?.content),
  );
  return { results, offered: server.requests[before].body.tools as Json[] };
}

describe('a local MCP server (a process in the location): its tools reach the model as <server>_<tool>', () => {
  let t: TestApp;
  let server: ScriptedModelServer;
  let log: EventLog;
  let a: Api;
  let directory: string;

  beforeAll(async () => {
    ({ t, server, log, a } = await startScripted());
    directory = projectDir({ 'opencode.json': providerConfig(server, { mcp: { 'my.tools': LOCAL } }) });
  });
  afterAll(() => stopScripted({ t, server }));

  it('offers my_tools_echo with its schema, runs it, and gives its text to the model in the next request', async () => {
    const { results, offered } = await callThroughModel(a, log, server, directory, [
      { name: 'my_tools_echo', input: { text: 'hello from the model' } },
      { name: 'my_tools_add', input: { a: 2, b: 40 } },
    ]);
    expect(results).toEqual(['echo: hello from the model', '42']);
    const echo = offered.find((tool) => tool.function?.name === 'my_tools_echo');
    expect(echo?.function.parameters).toMatchObject({
      type: 'object',
      properties: { text: { type: 'string' } },
      required: ['text'],
    });
    expect(offered.map((tool) => tool.function.name)).toEqual(
      expect.arrayContaining(['read', 'bash', 'my_tools_add', 'my_tools_pixel', 'my_tools_broken']),
    );
  });

  it('an image becomes a note, an embedded resource its text, and isError a tool error', async () => {
    const sessionCalls = [
      { name: 'my_tools_pixel', input: {} },
      { name: 'my_tools_broken', input: {} },
    ];
    const { results } = await callThroughModel(a, log, server, directory, sessionCalls);
    expect(results[0]).toBe(
      'here is a pixel\n[The tool returned an image (image/png, 68 bytes), not shown]\nembedded note',
    );
    expect(results[1]).toContain('the broken tool broke');
  });

  it('the tool part is recorded as an error for isError', async () => {
    const sessionID = await a.createSession(directory);
    server.script({ toolCalls: [{ name: 'my_tools_broken', input: {} }] }, { text: 'It broke.' });
    await a.prompt(sessionID, { text: 'break it' });
    await log.idle(sessionID);
    const step = (await a.messages(sessionID)).find((m) => m.type === 'assistant')!;
    expect(step.content[0].state).toMatchObject({
      status: 'error',
      error: { type: 'McpToolError', message: 'the broken tool broke' },
    });
  });
});

describe('permission rules apply to MCP tools by name: "<server>_*": "ask" asks', () => {
  let t: TestApp;
  let server: ScriptedModelServer;
  let log: EventLog;
  let a: Api;

  beforeAll(async () => ({ t, server, log, a } = await startScripted()));
  afterAll(() => stopScripted({ t, server }));

  it('asks before the call, and runs it once allowed', async () => {
    const config = { mcp: { tools: LOCAL }, permission: { 'tools_*': 'ask' } };
    const directory = projectDir({ 'opencode.json': providerConfig(server, config) });
    const sessionID = await a.createSession(directory);
    server.script(
      { toolCalls: [{ id: 'call_0', name: 'tools_echo', input: { text: 'hi' } }] },
      { text: 'ok' },
    );
    await a.prompt(sessionID, { text: 'echo' });
    const asked = await log.asked(sessionID);
    expect(asked.data).toMatchObject({ permission: 'tools_echo', patterns: ['*'] });
    expect((await a.reply(sessionID, asked.data.id, 'once')).status).toBeLessThan(300);
    await log.idle(sessionID);
    const tool = (server.requests.at(-1)!.body.messages as Json[]).find((m) => m.role === 'tool');
    expect(tool?.content).toBe('echo: hi');
  });

  it('"<server>_*": "deny" keeps the tools from the model', async () => {
    const config = { mcp: { tools: LOCAL }, permission: { 'tools_*': 'deny' } };
    const directory = projectDir({ 'opencode.json': providerConfig(server, config) });
    const sessionID = await a.createSession(directory);
    server.script({ text: 'nothing to do' });
    await a.prompt(sessionID, { text: 'hi' });
    await log.idle(sessionID);
    const names = (server.requests.at(-1)!.body.tools as Json[]).map((tool) => tool.function.name);
    expect(names).toContain('read');
    expect(names.filter((name) => name.startsWith('tools_'))).toEqual([]);
  });
});

describe('a remote MCP server (Streamable HTTP) is reached through the outbound guard, with its headers', () => {
  let t: TestApp;
  let server: ScriptedModelServer;
  let log: EventLog;
  let a: Api;
  let remote: RemoteMcp;

  beforeAll(async () => {
    ({ t, server, log, a } = await startScripted({ env: { OUTPOST_CONNECTIONS_ALLOW: '127.0.0.1' } }));
    remote = await startRemoteMcp(['x-test-token', 's3cret']);
  });
  afterAll(async () => {
    await stopScripted({ t, server });
    await remote.close();
  });

  it('calls remote_echo (its header from {env:…}) and the result reaches the model', async () => {
    process.env.MCP_TEST_TOKEN = 's3cret';
    const headers = { 'x-test-token': '{env:MCP_TEST_TOKEN}' };
    const mcp = { remote: { type: 'remote', url: remote.url, headers } };
    const directory = projectDir({ 'opencode.json': providerConfig(server, { mcp }) });
    const { results } = await callThroughModel(a, log, server, directory, [
      { name: 'remote_echo', input: { text: 'over http' } },
    ]);
    expect(results).toEqual(['echo: over http']);
  });

  it('a server that refuses the headers is failed, with the reason', async () => {
    const mcp = { remote: { type: 'remote', url: remote.url, headers: { 'x-test-token': 'wrong' } } };
    const directory = projectDir({ 'opencode.json': providerConfig(server, { mcp }) });
    const res = await a.get(`/mcp?directory=${encodeURIComponent(directory)}`);
    expect(res.body).toEqual({
      remote: { status: 'failed', error: expect.stringContaining('wrong or missing header') },
    });
  });
});

describe('an older remote MCP server that speaks only HTTP+SSE is reached by the fallback', () => {
  let t: TestApp;
  let server: ScriptedModelServer;
  let log: EventLog;
  let a: Api;
  let remote: RemoteMcp;

  beforeAll(async () => {
    ({ t, server, log, a } = await startScripted({ env: { OUTPOST_CONNECTIONS_ALLOW: '127.0.0.1' } }));
    remote = await startSseMcp();
  });
  afterAll(async () => {
    await stopScripted({ t, server });
    await remote.close();
  });

  it('Streamable HTTP is refused, SSE answers: its tools reach the model and its status is connected', async () => {
    const mcp = { legacy: { type: 'remote', url: remote.url } };
    const directory = projectDir({ 'opencode.json': providerConfig(server, { mcp }) });
    const { results } = await callThroughModel(a, log, server, directory, [
      { name: 'legacy_echo', input: { text: 'over sse' } },
    ]);
    expect(results).toEqual(['echo: over sse']);
    const status = await a.get(`/mcp?directory=${encodeURIComponent(directory)}`);
    expect(status.body).toEqual({ legacy: { status: 'connected' } });
  });
});
