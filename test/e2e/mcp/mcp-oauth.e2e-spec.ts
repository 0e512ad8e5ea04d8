import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { MCP_TEST_LOCAL } from '../../helpers/mcp-server';
import { OAuthMcp, startOAuthMcp } from '../../helpers/mcp-oauth-server';
import { projectDir } from '../../helpers/project-dir';
import { Api, EventLog, providerConfig, startScripted, stopScripted } from '../../helpers/prompt';
import { ScriptedModelServer } from '../../helpers/scripted-model-server';
import { basic, TestApp } from '../../helpers/test-app';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

describe('OAuth for a remote MCP server: needs_auth, then PKCE with dynamic client registration, tokens kept 0600', () => {
  let t: TestApp;
  let server: ScriptedModelServer;
  let log: EventLog;
  let a: Api;
  let oauth: OAuthMcp;
  let directory: string;
  const at = (path: string) => `${path}?directory=${encodeURIComponent(directory)}`;
  const stored = () => JSON.parse(readFileSync(join(t.dataDir, 'mcp-auth.json'), 'utf8')) as Json;

  beforeAll(async () => {
    ({ t, server, log, a } = await startScripted({ env: { OUTPOST_CONNECTIONS_ALLOW: '127.0.0.1' } }));
    oauth = await startOAuthMcp();
    const mcp = {
      secure: { type: 'remote', url: oauth.url },
      local: MCP_TEST_LOCAL,
    };
    directory = projectDir({ 'opencode.json': providerConfig(server, { mcp }) });
  });
  afterAll(async () => {
    await stopScripted({ t, server });
    await oauth.close();
  });

  it('a server that answers 401 is needs_auth', async () => {
    expect((await a.get(at('/mcp'))).body.secure).toEqual({ status: 'needs_auth' });
  });

  it('auth starts the flow, the code from the redirect finishes it, and the server connects', async () => {
    const started = await a.post(at('/mcp/secure/auth'));
    expect(started.status).toBe(200);
    const { authorizationUrl, oauthState } = started.body as { authorizationUrl: string; oauthState: string };
    const url = new URL(authorizationUrl);
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    expect(url.searchParams.get('redirect_uri')).toBe('http://127.0.0.1:19876/mcp/oauth/callback');
    expect(url.searchParams.get('state')).toBe(oauthState);
    expect(url.searchParams.get('client_id')).toBeTruthy();

    // The person approves: the authorization server sends the browser back with the code.
    const approved = await fetch(authorizationUrl, { redirect: 'manual' });
    const back = new URL(approved.headers.get('location')!);
    expect(back.searchParams.get('state')).toBe(oauthState);
    const code = back.searchParams.get('code')!;

    const finished = await a.post(at('/mcp/secure/auth/callback'), { code });
    expect(finished.status).toBe(200);
    expect(finished.body).toEqual({ status: 'connected' });
    expect((await a.get(at('/mcp'))).body.secure).toEqual({ status: 'connected' });

    const file = join(t.dataDir, 'mcp-auth.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(stored()[oauth.url]).toMatchObject({
      client: { client_id: url.searchParams.get('client_id') },
      tokens: { access_token: expect.any(String), token_type: expect.stringMatching(/bearer/i) },
    });
  });

  it('the tools of the authorized server reach the model', async () => {
    const sessionID = await a.createSession(directory);
    server.script(
      { toolCalls: [{ id: 'c1', name: 'secure_echo', input: { text: 'with a token' } }] },
      { text: 'ok' },
    );
    await a.prompt(sessionID, { text: 'echo' });
    await log.idle(sessionID);
    const tool = (server.requests.at(-1)!.body.messages as Json[]).find((m) => m.tool_call_id === 'c1');
    expect(tool?.content).toBe('echo: with a token');
  });

  it('a wrong code is a 400 naming the failure', async () => {
    await a.post(at('/mcp/secure/auth'));
    const res = await a.post(at('/mcp/secure/auth/callback'), { code: 'not-a-code' });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ name: 'McpOAuthFailedError', data: { name: 'secure' } });
  });

  it('DELETE auth forgets the tokens: the server needs auth again', async () => {
    const res = await t.http.delete(at('/mcp/secure/auth')).set('authorization', basic());
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true });
    expect(stored()[oauth.url]).toBeUndefined();
    expect((await a.post(at('/mcp/secure/connect'))).body).toBe(true);
    expect((await a.get(at('/mcp'))).body.secure).toEqual({ status: 'needs_auth' });
  });

  it('a local server has no OAuth, and authenticate (a browser on the server) says what to do instead', async () => {
    const local = await a.post(at('/mcp/local/auth'));
    expect(local.status).toBe(400);
    expect(local.body).toMatchObject({
      name: 'McpUnsupportedOAuthError',
      data: { error: expect.stringContaining('local') },
    });
    const authenticate = await a.post(at('/mcp/secure/auth/authenticate'));
    expect(authenticate.status).toBe(400);
    expect(authenticate.body.data.error).toContain('/auth/callback');
  });
});
