import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Person, signup } from '../../helpers/console';
import { approve } from '../../helpers/device';
import { projectDir } from '../../helpers/project-dir';
import { ScriptedModelServer } from '../../helpers/scripted-model-server';
import { createTestApp, TestApp } from '../../helpers/test-app';
import { api, EventLog } from '../../helpers/prompt';
import { runCli, runLogin } from '../../helpers/outpost-cli';

/**
 * Two real processes on loopback: a console with its gateway (and a scripted upstream model behind it), and an
 * instance signed in to it with `outpost login`.
 */
describe('an instance signed in to a console', () => {
  let upstream: ScriptedModelServer;
  let consoleApp: TestApp;
  let instance: TestApp;
  let owner: Person;
  let dataDir: string;
  let project: string;

  const poll = async <T>(read: () => Promise<T>, ok: (value: T) => boolean, ms = 10_000): Promise<T> => {
    const deadline = Date.now() + ms;
    let value = await read();
    while (!ok(value) && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      value = await read();
    }
    return value;
  };
  const setConfig = (models: Record<string, unknown>, policies: unknown[] = []) =>
    owner.put(`/console/api/orgs/${owner.org}/config`, {
      providers: {
        team: {
          name: 'Team gateway',
          env: ['OUTPOST_API_KEY'],
          package: 'aisdk:@ai-sdk/openai-compatible',
          settings: { baseURL: `${consoleApp.url}/inference/openai/v1` },
          models,
        },
      },
      policies,
    });
  const spent = async () => {
    const res = await owner.get('/console/api/v1/budgets/members').set('x-org-id', owner.org);
    return BigInt(res.body.find((row: { user_id: string }) => row.user_id === owner.id).spent_micro_cents);
  };
  const info = async () => (await api(instance).get('/api/info')).body;
  const providers = async () =>
    ((await api(instance).get(`/api/provider?location[directory]=${encodeURIComponent(project)}`)).body
      .data ?? []) as Array<{ id: string }>;
  const models = async () =>
    (
      ((await api(instance).get(`/api/model?location[directory]=${encodeURIComponent(project)}`)).body.data ??
        []) as Array<{ id: string; providerID: string }>
    ).map((model) => `${model.providerID}/${model.id}`);

  beforeAll(async () => {
    upstream = await ScriptedModelServer.start();
    const catalogue = join(mkdtempSync(join(tmpdir(), 'outpost-link-')), 'gateway.yaml');
    writeFileSync(
      catalogue,
      `providers:\n  up:\n    base_url: ${upstream.baseURL}\n    schema: openai-chat\n    api_key_env: UP_KEY\n    models:\n      small: { prices: { input: 1, output: 2 } }\n      large: { prices: { input: 3, output: 6 } }\n`,
    );
    consoleApp = await createTestApp({
      env: {
        OUTPOST_SURFACES: 'console,inference',
        OUTPOST_GATEWAY_CONFIG: catalogue,
        UP_KEY: 'sk-upstream',
        OUTPOST_CONNECTIONS_ALLOW: '127.0.0.1',
        OUTPOST_SECRET_KEY: 'console-link-test-secret-0123456789',
      },
    });
    owner = await signup(consoleApp);
    expect((await setConfig({ small: { name: 'Small', cost: { input: 1, output: 2 } } })).status).toBe(200);
    dataDir = mkdtempSync(join(tmpdir(), 'outpost-linked-'));
    project = projectDir({ 'README.md': 'hello' });
  });
  afterAll(async () => {
    await instance?.close();
    await consoleApp.close();
    await upstream.close();
  });

  it('outpost login: the device flow approved over HTTP; tokens kept with mode 0600; the workspace named', async () => {
    const login = runLogin(dataDir, consoleApp.url);
    const userCode = await login.code;
    expect(login.output()).toContain(`${consoleApp.url}/console/device?user_code=`);
    await approve(consoleApp, owner, userCode, owner.org);
    expect(await login.exited).toBe(0);
    // The workspace by its name (a sign-up's first one is "Personal"), its id in parentheses.
    expect(login.output()).toContain(`Signed in to ${consoleApp.url}, workspace Personal (${owner.org}).`);
    const file = join(dataDir, 'console.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toMatchObject({
      consoleUrl: consoleApp.url,
      orgId: owner.org,
      orgName: 'Personal',
    });
    expect((await runCli(dataDir, ['login', '--status'])).output).toContain(
      `signed in: ${consoleApp.url}, workspace Personal (${owner.org}), since`,
    );
    // A sign-in kept by an older version has no name: the server asks the console for it.
    const { orgName, ...older } = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
    expect(orgName).toBe('Personal');
    writeFileSync(file, JSON.stringify(older), { mode: 0o600 });

    instance = await createTestApp({
      dataDir,
      env: { OUTPOST_CONSOLE_POLL_MS: '300', OUTPOST_CONNECTIONS_ALLOW: '127.0.0.1' },
    });
    const linked = await poll(info, (body) => body.console.workspaceName !== null);
    expect(linked.console).toMatchObject({
      state: 'linked',
      console: consoleApp.url,
      workspace: owner.org,
      workspaceName: 'Personal',
    });
    expect(JSON.parse(readFileSync(file, 'utf8')).orgName).toBe('Personal');
  });

  it("the workspace's provider is in every location and a prompt runs through the gateway, billed to the person", async () => {
    expect((await providers()).map((provider) => provider.id)).toContain('team');
    const log = new EventLog(instance);
    const a = api(instance);
    const before = await spent();
    upstream.script({ text: 'answered through the console', usage: { input: 100, output: 10 } });
    const session = await a.createSession(project, { model: { providerID: 'team', id: 'small' } });
    const idle = log.idle(session);
    expect((await a.prompt(session, { text: 'hello' })).status).toBe(200);
    await idle;
    const messages = await a.messages(session);
    expect(JSON.stringify(messages)).toContain('answered through the console');
    const sent = upstream.requests.at(-1)!;
    expect(sent.headers.authorization).toBe('Bearer sk-upstream');
    // 100 x 100 + 10 x 200 micro-cents, on the person's spend.
    expect(await poll(spent, (value) => value === before + 12_000n)).toBe(before + 12_000n);
    // The device token never lands in a config file.
    const token = JSON.parse(readFileSync(join(dataDir, 'console.json'), 'utf8')).accessToken as string;
    expect(readFileSync(join(dataDir, 'console-config.json'), 'utf8')).not.toContain(token);
  });

  it('a budget below the spend stops the next step with UserLimitError; raising it lets the session go on', async () => {
    const a = api(instance);
    const log = new EventLog(instance);
    const session = await a.createSession(project, { model: { providerID: 'team', id: 'small' } });
    await owner
      .put(`/console/api/v1/budgets/members/${owner.id}`, { budget_dollars: 0 })
      .set('x-org-id', owner.org);
    let idle = log.idle(session);
    await a.prompt(session, { text: 'one more' });
    await idle;
    const stopped = JSON.stringify(await a.messages(session));
    expect(stopped).toContain('"type":"UserLimitError"');
    expect(stopped).toMatch(
      /your monthly budget of \$0\.00 is used up until \d{4}-\d{2}-01\. Ask a workspace owner/,
    );
    await owner
      .put(`/console/api/v1/budgets/members/${owner.id}`, { budget_dollars: 100 })
      .set('x-org-id', owner.org);
    upstream.script({ text: 'going on again', usage: { input: 1, output: 1 } });
    idle = log.idle(session, log.events.length);
    await a.prompt(session, { text: 'and now?' });
    await idle;
    expect(JSON.stringify(await a.messages(session))).toContain('going on again');
  });

  it('an access token about to expire is refreshed (a new pair kept on disk) and calls go on with the new one', async () => {
    const file = join(dataDir, 'console.json');
    const before = JSON.parse(readFileSync(file, 'utf8'));
    writeFileSync(file, JSON.stringify({ ...before, expiresAt: Date.now() + 60_000 }), { mode: 0o600 });
    const after = await poll(
      async () => JSON.parse(readFileSync(file, 'utf8')),
      (link) => link.accessToken !== before.accessToken,
      5_000,
    );
    expect(after.accessToken).not.toBe(before.accessToken);
    expect(after.refreshToken).not.toBe(before.refreshToken);
    expect(after.expiresAt).toBeGreaterThan(Date.now() + 30 * 60_000);
    const a = api(instance);
    const log = new EventLog(instance);
    upstream.script({ text: 'with a fresh token', usage: { input: 1, output: 1 } });
    const session = await a.createSession(project, { model: { providerID: 'team', id: 'small' } });
    const idle = log.idle(session);
    await a.prompt(session, { text: 'hi' });
    await idle;
    expect(JSON.stringify(await a.messages(session))).toContain('with a fresh token');
    expect(upstream.requests.length).toBeGreaterThan(0);
  });

  it('a model added on the console is usable within the poll interval; a denied one disappears', async () => {
    await setConfig({ small: { name: 'Small' }, large: { name: 'Large' } });
    expect(await poll(models, (list) => list.includes('team/large'), 5_000)).toContain('team/large');
    await setConfig({ small: { name: 'Small' }, large: { name: 'Large' } }, [
      { action: 'provider.use', resource: 'team/large', effect: 'deny' },
    ]);
    const tightened = await poll(models, (list) => !list.includes('team/large'), 5_000);
    expect(tightened).not.toContain('team/large');
    expect(tightened).toContain('team/small');
  });

  it("with no provider written, the gateway's models and a connection are offered; a prompt runs on the connection", async () => {
    const connection = await owner.post(`/console/api/orgs/${owner.org}/connections`, {
      name: 'Team vLLM',
      base_url: upstream.baseURL,
      schema: 'openai-chat',
      auth: { mode: 'bearer', credential: 'sk-team-vllm' },
      models: { llama: { name: 'Llama', prices: { input: 1, output: 2 } } },
    });
    expect(connection.status).toBe(201);
    const id = connection.body.id as string;
    const listed = await poll(models, (list) => list.includes(`${id}/llama`), 5_000);
    expect(listed).toEqual(expect.arrayContaining([`${id}/llama`, 'outpost/up/small', 'outpost/up/large']));
    const log = new EventLog(instance);
    const a = api(instance);
    upstream.script({ text: 'answered by the connection', usage: { input: 10, output: 5 } });
    const session = await a.createSession(project, { model: { providerID: id, id: 'llama' } });
    const idle = log.idle(session);
    expect((await a.prompt(session, { text: 'hello' })).status).toBe(200);
    await idle;
    expect(JSON.stringify(await a.messages(session))).toContain('answered by the connection');
    const sent = upstream.requests.at(-1)!;
    expect(sent.headers.authorization).toBe('Bearer sk-team-vllm');
    expect(sent.body.model).toBe('llama');
  });

  it('the console down: the instance keeps its last config and says so', async () => {
    // Every node of the console (with OUTPOST_TEST_FLEET, nginx stays up and answers 502 for them).
    await Promise.all(consoleApp.nodes.map((node) => node.unlisten()));
    const down = await poll(info, (body) => body.console.problem !== null, 5_000);
    expect(down.console).toMatchObject({
      state: 'linked',
      problem: expect.stringContaining('not reachable'),
    });
    expect((await providers()).map((provider) => provider.id)).toContain('team');
    await Promise.all(consoleApp.nodes.map((node) => node.listen()));
    const back = await poll(info, (body) => body.console.problem === null, 5_000);
    expect(back.console.state).toBe('linked');
  });

  it('the device sign-in revoked on the console: the instance is signed out and its console models are gone', async () => {
    const sessions = await owner.get('/console/api/sessions');
    const device = sessions.body.find(
      (session: { client_id: string }) => session.client_id === 'outpost-cli',
    );
    expect((await owner.del(`/console/api/sessions/${device.id}`)).status).toBe(204);
    const out = await poll(info, (body) => body.console.state === 'signed_out', 5_000);
    expect(out.console.state).toBe('signed_out');
    expect((await providers()).map((provider) => provider.id)).not.toContain('team');
    // A prompt on a console model is now refused, naming the provider.
    const a = api(instance);
    const session = await a.createSession(project, { model: { providerID: 'team', id: 'small' } });
    const refused = await a.prompt(session, { text: 'still there?' });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ _tag: 'ProviderNotFoundError', providerID: 'team' });
    expect((await runCli(dataDir, ['login', '--status'])).output).toContain('signed out by the console');
  });

  it('outpost login again, then outpost logout: the console revokes the sign-in and the instance is unlinked', async () => {
    const login = runLogin(dataDir, consoleApp.url);
    await approve(consoleApp, owner, await login.code, owner.org);
    expect(await login.exited).toBe(0);
    expect((await poll(info, (body) => body.console.state === 'linked', 5_000)).console.state).toBe('linked');
    const live = async () =>
      ((await owner.get('/console/api/sessions')).body as Array<{ client_id: string }>).filter(
        (session) => session.client_id === 'outpost-cli',
      ).length;
    expect(await live()).toBe(1);
    const logout = await runCli(dataDir, ['logout']);
    expect(logout).toMatchObject({
      code: 0,
      output: expect.stringContaining(`signed out of ${consoleApp.url}`),
    });
    expect(await live()).toBe(0);
    expect((await poll(info, (body) => body.console.state === 'unlinked', 5_000)).console.state).toBe(
      'unlinked',
    );
    expect((await runCli(dataDir, ['login', '--status'])).output).toContain('not signed in');
  });
});
