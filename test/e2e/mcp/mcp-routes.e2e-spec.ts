import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { eventually } from '../../helpers/eventually';
import { MCP_TEST_LOCAL as LOCAL } from '../../helpers/mcp-server';
import { RemoteMcp, startRemoteMcp } from '../../helpers/mcp-remote';
import { projectDir } from '../../helpers/project-dir';
import { Api, EventLog, providerConfig, startScripted, stopScripted } from '../../helpers/prompt';
import { ScriptedModelServer } from '../../helpers/scripted-model-server';
import { basic, TestApp } from '../../helpers/test-app';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const FAILING = {
  exits: { type: 'local', command: ['node', '-e', 'process.stderr.write("boom\\n"); process.exit(3)'] },
  missing: { type: 'local', command: ['outpost-no-such-command-for-mcp'] },
  silent: { type: 'local', command: ['node', '-e', 'setInterval(() => {}, 1000)'], timeout: 300 },
  incomplete: { type: 'local' },
  unset: { ...LOCAL, environment: { TOKEN: '{env:OUTPOST_TEST_MCP_UNSET}' } },
  off: { ...LOCAL, enabled: false },
};

describe('MCP servers that fail are reported as failed with the reason, and never fail the session', () => {
  let t: TestApp;
  let server: ScriptedModelServer;
  let log: EventLog;
  let a: Api;
  let directory: string;

  beforeAll(async () => {
    ({ t, server, log, a } = await startScripted());
    directory = projectDir({ 'opencode.json': providerConfig(server, { mcp: FAILING }) });
  });
  afterAll(() => stopScripted({ t, server }));

  it('GET /mcp: failed (exited, not found, timed out, incomplete, a variable unset) and disabled', async () => {
    const res = await a.get(`/mcp?directory=${encodeURIComponent(directory)}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      exits: { status: 'failed', error: expect.stringContaining('boom') },
      missing: { status: 'failed', error: 'command not found: outpost-no-such-command-for-mcp' },
      silent: { status: 'failed', error: 'did not answer within 300 ms' },
      incomplete: { status: 'failed', error: 'a local server needs a "command"' },
      unset: { status: 'failed', error: 'the environment variable OUTPOST_TEST_MCP_UNSET is not set' },
      off: { status: 'disabled' },
    });
  });

  it('a prompt in the location still answers, with the built-in tools only', async () => {
    const sessionID = await a.createSession(directory);
    server.script({ text: 'Still here.' });
    expect((await a.prompt(sessionID, { text: 'hello' })).status).toBe(200);
    await log.idle(sessionID);
    const step = (await a.messages(sessionID)).find((m) => m.type === 'assistant')!;
    expect(step.content).toEqual([expect.objectContaining({ type: 'text', text: 'Still here.' })]);
    const names = (server.requests.at(-1)!.body.tools as Json[]).map((tool) => tool.function.name);
    expect(names.some((name) => name.includes('_echo'))).toBe(false);
  });
});

describe('the v1 MCP routes: status, add, connect, disconnect; OAuth on a local server', () => {
  let t: TestApp;
  let server: ScriptedModelServer;
  let log: EventLog;
  let a: Api;
  let directory: string;
  let remote: RemoteMcp;
  const at = (path: string) => `${path}?directory=${encodeURIComponent(directory)}`;

  beforeAll(async () => {
    ({ t, server, log, a } = await startScripted());
    directory = projectDir({ 'opencode.json': providerConfig(server, { mcp: { tools: LOCAL } }) });
    remote = await startRemoteMcp(['x-test-token', 's3cret']);
  });
  afterAll(async () => {
    await stopScripted({ t, server });
    await remote.close();
  });

  it('GET /mcp answers the status map', async () => {
    expect((await a.get(at('/mcp'))).body).toEqual({ tools: { status: 'connected' } });
  });

  it('POST /mcp adds a server and answers every status; a bad config is a 400', async () => {
    const res = await a.post(at('/mcp'), { name: 'added', config: LOCAL });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ tools: { status: 'connected' }, added: { status: 'connected' } });
    const bad = await a.post(at('/mcp'), { name: 'broken', config: { type: 'local' } });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toContain('a local server needs a \\"command\\"');
  });

  it('disconnect stops a server (disabled) and connect starts it again', async () => {
    expect((await a.post(at('/mcp/added/disconnect'))).body).toBe(true);
    expect((await a.get(at('/mcp'))).body.added).toEqual({ status: 'disabled' });
    expect((await a.post(at('/mcp/added/connect'))).body).toBe(true);
    expect((await a.get(at('/mcp'))).body.added).toEqual({ status: 'connected' });
  });

  it('an unknown server is a 404; the OAuth routes of a local server are a 400 saying it has no OAuth', async () => {
    const unknown = await a.post(at('/mcp/nope/connect'));
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ name: 'NotFoundError', data: { name: 'nope' } });
    for (const res of [
      await a.post(at('/mcp/tools/auth')),
      await a.post(at('/mcp/tools/auth/callback'), { code: 'x' }),
      await t.http.delete(at('/mcp/tools/auth')).set('authorization', basic()),
    ]) {
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({
        name: 'McpUnsupportedOAuthError',
        data: { error: expect.stringContaining('OAuth') },
      });
    }
  });

  it('a remote server on loopback is refused by the outbound guard when the allow-list does not allow it', async () => {
    const config = { type: 'remote', url: remote.url, headers: { 'x-test-token': 's3cret' } };
    const res = await a.post(at('/mcp'), { name: 'inside', config });
    expect(res.body.inside).toEqual({ status: 'failed', error: expect.stringMatching(/internal address/) });
    expect(remote.requests).toBe(0);
  });

  it('the prompt of a server is a command (<server>:<prompt>) that runs with its arguments', async () => {
    const commands = (await a.get(at('/command'))).body as Json[];
    expect(commands).toContainEqual(
      expect.objectContaining({ name: 'tools:greet', description: 'Greet someone', source: 'mcp' }),
    );
    const sessionID = await a.createSession(directory);
    server.script({ text: 'Hello, Ada!' });
    const res = await a.post(`/session/${sessionID}/command`, { command: 'tools:greet', arguments: 'Ada' });
    expect(res.status).toBe(200);
    await log.idle(sessionID);
    const user = (server.requests.at(-1)!.body.messages as Json[]).filter((m) => m.role === 'user').at(-1);
    expect(JSON.stringify(user?.content)).toContain('Say hello to Ada.');
  });

  it('a server that crashes is failed with the reason, and connect starts it again', async () => {
    const sessionID = await a.createSession(directory);
    server.script({ toolCalls: [{ name: 'tools_crash', input: {} }] }, { text: 'It crashed.' });
    await a.prompt(sessionID, { text: 'crash it' });
    await log.idle(sessionID);
    const status = await eventually(
      async () => (await a.get(at('/mcp'))).body.tools,
      (s) => s.status === 'failed',
    );
    expect(status).toEqual({ status: 'failed', error: expect.stringContaining('crashing on purpose') });
    expect((await a.post(at('/mcp/tools/connect'))).body).toBe(true);
    expect((await a.get(at('/mcp'))).body.tools).toEqual({ status: 'connected' });
  });

  it('a location reload stops the server processes and starts them from the config as it is then', async () => {
    const sessionID = await a.createSession(directory);
    server.script({ toolCalls: [{ id: 'call_pid', name: 'tools_pid', input: {} }] }, { text: 'ok' });
    await a.prompt(sessionID, { text: 'pid?' });
    await log.idle(sessionID);
    const tool = (server.requests.at(-1)!.body.messages as Json[]).find((m) => m.tool_call_id === 'call_pid');
    const pid = Number(tool?.content);
    expect(pid).toBeGreaterThan(0);
    const config = providerConfig(server, { mcp: { tools: { ...LOCAL, enabled: false } } });
    writeFileSync(join(directory, 'opencode.json'), config);
    expect((await a.post('/api/location/reload')).status).toBe(204);
    expect((await a.get(at('/mcp'))).body).toEqual({ tools: { status: 'disabled' } });
    const alive = () => {
      try {
        process.kill(pid, 0);
        return true;
      } catch {
        return false;
      }
    };
    expect(await eventually(alive, (running) => !running)).toBe(false);
  });
});
