import { writeFileSync } from 'node:fs';
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { basic, createTestApp, TEST_PASSWORD, TestApp } from '../../helpers/test-app';
import { tempDir } from '../../helpers/sessions';

const run = promisify(execFile);

describe('wire compatibility with the opencode v2 client (@opencode-ai/sdk)', () => {
  let t: TestApp;
  const home = tempDir();

  beforeAll(async () => (t = await createTestApp({ env: { OUTPOST_DEFAULT_DIRECTORY: home } })));
  afterAll(() => t.close());

  it('lists, creates, gets and switches sessions', async () => {
    const { stdout } = await run(process.execPath, [
      join(__dirname, 'sdk-client.mjs'),
      t.url,
      TEST_PASSWORD,
      home,
    ]);
    const out = JSON.parse(stdout);
    expect(out.create.status).toBe(200);
    const created = out.create.data.data;
    expect(created).toMatchObject({
      agent: 'plan',
      location: { directory: home },
      title: expect.any(String),
    });
    expect(out.createWithId).toMatchObject({
      status: 200,
      data: { data: { id: 'ses_7ffffffffffffffeSdKcLiEnTaBc' } },
    });
    expect(out.get).toEqual({ status: 200, data: { data: created } });
    expect(out.switchAgent.status).toBe(204);
    expect(out.switchModel.status).toBe(204);
    expect(out.afterSwitch.data.data).toMatchObject({
      id: created.id,
      agent: 'build',
      model: { id: 'gpt-5', providerID: 'openai' },
    });
    // The client adds `directory` and `location[directory]` to GETs; the list filters by that directory.
    expect(out.list.status).toBe(200);
    expect(out.list.data.data.map((s: { id: string }) => s.id)).toEqual([created.id]);
    expect(Object.keys(out.list.data.cursor).sort()).toEqual(['next', 'previous']);
    expect(out.next.data.data.map((s: { id: string }) => s.id)).toEqual(['ses_7ffffffffffffffeSdKcLiEnTaBc']);
    expect(out.active).toEqual({ status: 200, data: { data: {} } });
    expect(out.missing).toMatchObject({
      status: 404,
      error: { _tag: 'SessionNotFoundError', sessionID: 'ses_7ffffffffffffffdSdKcLiEnTaBc' },
    });
    // Built with `directory`, as opencode's TUI and apps build it: ?directory= on every GET is the location.
    expect(out.location).toMatchObject({ status: 200, data: { directory: home } });
    expect(out.agents.status).toBe(200);
    expect(out.agents.data.location).toMatchObject({ directory: home });
    expect(out.firstEvent).toMatchObject({ type: 'server.connected' });
  });

  it('the v2 lists the released TUI reads at start-up answer for the location', async () => {
    const auth = { authorization: basic() };
    expect((await t.http.get('/api/health').set(auth)).body).toEqual({ healthy: true });
    const commands = await t.http.get(`/api/command?directory=${encodeURIComponent(home)}`).set(auth);
    expect(commands.body.data.map((c: { name: string }) => c.name)).toEqual(['init', 'review']);
    for (const path of ['/api/skill', '/api/reference', '/api/integration', '/api/question/request']) {
      const res = await t.http.get(`${path}?directory=${encodeURIComponent(home)}`).set(auth);
      expect({ path, status: res.status, body: res.body }).toEqual({
        path,
        status: 200,
        body: { location: expect.objectContaining({ directory: home }), data: [] },
      });
    }
    const permissions = await t.http
      .get(`/api/permission/request?directory=${encodeURIComponent(home)}`)
      .set(auth);
    expect(permissions.body).toMatchObject({ location: { directory: home }, data: [] });
    expect((await t.http.get('/api/command')).status).toBe(401);
  });

  it("/api/model and /api/provider list the location's config, without credentials or headers", async () => {
    const project = tempDir();
    writeFileSync(
      join(project, 'outpost.json'),
      JSON.stringify({
        provider: {
          local: {
            name: 'Local',
            package: 'aisdk:@ai-sdk/openai-compatible',
            settings: { baseURL: 'http://127.0.0.1:9/v1', apiKey: '{env:SECRET_PROVIDER_KEY}' },
            headers: { authorization: 'Bearer sk-literal-secret' },
            models: {
              small: { name: 'Small', cost: { input: 1, output: 2 }, limit: { context: 8000, output: 1000 } },
            },
          },
        },
      }),
    );
    const auth = { authorization: basic() };
    const models = await t.http.get(`/api/model?directory=${encodeURIComponent(project)}`).set(auth);
    expect(models.status).toBe(200);
    expect(models.body.data).toEqual([
      expect.objectContaining({
        id: 'small',
        providerID: 'local',
        name: 'Small',
        api: {
          id: 'small',
          type: 'aisdk',
          package: '@ai-sdk/openai-compatible',
          url: 'http://127.0.0.1:9/v1',
        },
        cost: [{ input: 1, output: 2, cache: { read: 1, write: 1 } }],
        limit: { context: 8000, output: 1000 },
        status: 'active',
        enabled: true,
      }),
    ]);
    const providers = await t.http.get(`/api/provider?directory=${encodeURIComponent(project)}`).set(auth);
    expect(providers.body.data).toEqual([
      {
        id: 'local',
        name: 'Local',
        api: { type: 'aisdk', package: '@ai-sdk/openai-compatible', url: 'http://127.0.0.1:9/v1' },
        request: { headers: {}, body: {} },
      },
    ]);
    const text = JSON.stringify([models.body, providers.body]);
    expect(text).not.toContain('SECRET_PROVIDER_KEY');
    expect(text).not.toContain('sk-literal-secret');
  });

  it('directory and workspace on any /api GET, x-opencode-directory, and a conflict named', async () => {
    const auth = { authorization: basic() };
    const q = `directory=${encodeURIComponent(home)}&workspace=wrk_1`;
    for (const path of ['/api/location', '/api/agent', '/api/agent/build', '/api/plugin', '/api/session']) {
      const res = await t.http.get(`${path}?${q}`).set(auth);
      expect({ path, status: res.status }).toEqual({ path, status: 200 });
    }
    const header = await t.http
      .get('/api/location')
      .set(auth)
      .set('x-opencode-directory', encodeURIComponent(home));
    expect(header.body).toMatchObject({ directory: home });
    const conflict = await t.http
      .get(`/api/location?directory=${encodeURIComponent(home)}&location[directory]=/tmp`)
      .set(auth);
    expect(conflict.status).toBe(400);
    expect(conflict.body).toMatchObject({ _tag: 'InvalidRequestError', field: 'directory', kind: 'Query' });
    expect(conflict.body.message).toContain('location[directory]');
  });
});
