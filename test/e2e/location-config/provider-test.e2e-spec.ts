import { createServer, Server, Socket } from 'node:net';
import { freePort } from '../../helpers/processes';
import { api, providerConfig } from '../../helpers/prompt';
import { projectDir } from '../../helpers/project-dir';
import { ScriptedModelServer } from '../../helpers/scripted-model-server';
import { createTestApp, TestApp } from '../../helpers/test-app';

/** A provider of `outpost.json` at `baseURL` (openai-compatible, one model). */
function providerAt(id: string, baseURL: string, apiKey = 'sk-test'): string {
  return JSON.stringify({
    provider: {
      [id]: {
        name: `The ${id} provider`,
        package: 'aisdk:@ai-sdk/openai-compatible',
        settings: { baseURL, apiKey },
        models: { m1: { name: 'M1' } },
      },
    },
  });
}

/** The web app's Models page "Test": one small real call to a location's provider, through a prompt's own model. */
describe('POST /api/provider/{providerID}/test', () => {
  let t: TestApp;
  let model: ScriptedModelServer;
  let silent: Server;
  const sockets: Socket[] = [];

  beforeAll(async () => {
    model = await ScriptedModelServer.start();
    // Accepts connections and never answers.
    silent = createServer((socket) => sockets.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
    await model.close();
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => silent.close(resolve));
  });

  const test = (directory: string, providerID: string, body: Record<string, unknown> = {}) =>
    api(t).post(
      `/api/provider/${providerID}/test?location[directory]=${encodeURIComponent(directory)}`,
      body,
    );

  it('a working provider: answered, with the model tried and the provider named', async () => {
    const directory = projectDir({ 'outpost.json': providerConfig(model) });
    const before = model.requests.length;
    model.script({ text: 'p' });
    const res = await test(directory, 'scripted', { model: 'large' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      ok: true,
      provider: 'scripted',
      model: 'large',
      url: model.baseURL,
      status: 200,
    });
    expect(res.body.message).toContain(model.baseURL);
    // One real call, a one-token answer asked for.
    expect(model.requests.length).toBe(before + 1);
    expect(model.requests.at(-1)!.body).toMatchObject({ model: 'large', max_tokens: 1 });
  });

  it('a refusal names the provider, the URL, the status and what to check', async () => {
    const directory = projectDir({ 'outpost.json': providerConfig(model) });
    model.script({ error: { status: 401, message: 'Incorrect API key provided' } });
    const res = await test(directory, 'scripted');
    expect(res.body).toMatchObject({ ok: false, status: 401, model: 'small' });
    expect(res.body.message).toMatch(
      /^Provider “scripted” at http:\/\/127\.0\.0\.1:\d+\/v1 refused the call with HTTP 401/,
    );
    expect(res.body.message).toContain('Incorrect API key provided');
    expect(res.body.message).toContain('Check the credential.');
  });

  it('nothing listening: the provider and its URL named, and the cause in words', async () => {
    const url = `http://127.0.0.1:${await freePort()}/v1`;
    const directory = projectDir({ 'outpost.json': providerAt('local', url) });
    const res = await test(directory, 'local');
    expect(res.body).toMatchObject({ ok: false, status: null, url });
    expect(res.body.message).toBe(
      `Provider “The local provider” at ${url} could not be reached: nothing answers at that address and port (connection refused). Check the base URL.`,
    );
  });

  it('a provider that never answers: the test ends at 5 s and says so', async () => {
    const { port } = silent.address() as { port: number };
    const url = `http://127.0.0.1:${port}/v1`;
    const directory = projectDir({ 'outpost.json': providerAt('stuck', url) });
    const res = await test(directory, 'stuck');
    expect(res.body).toMatchObject({ ok: false, status: null });
    expect(res.body.message).toBe(
      `Provider “The stuck provider” at ${url} did not answer within 5 s. Check the base URL.`,
    );
    expect(res.body.latency_ms).toBeGreaterThanOrEqual(5_000);
    expect(res.body.latency_ms).toBeLessThan(15_000);
  });

  it('a key from a variable that is not set is named; the key itself is never in the answer', async () => {
    const directory = projectDir({
      'outpost.json': providerAt('keyed', model.baseURL, '{env:OUTPOST_TEST_UNSET_KEY}'),
    });
    const res = await test(directory, 'keyed');
    expect(res.body.ok).toBe(false);
    expect(res.body.message).toContain('OUTPOST_TEST_UNSET_KEY');
    const good = await test(projectDir({ 'outpost.json': providerConfig(model) }), 'scripted');
    expect(JSON.stringify(good.body)).not.toContain('sk-scripted');
  });

  it('an unknown provider is 404, an unknown model and a bad field are 400s naming them, credentials required', async () => {
    const directory = projectDir({ 'outpost.json': providerConfig(model) });
    const unknown = await test(directory, 'nope');
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ _tag: 'ProviderNotFoundError', providerID: 'nope' });
    const noModel = await test(directory, 'scripted', { model: 'huge' });
    expect(noModel.status).toBe(400);
    expect(JSON.stringify(noModel.body)).toContain('huge');
    const bad = await test(directory, 'scripted', { model: 'has space' });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toContain('model');
    const anonymous = await t.http
      .post(`/api/provider/scripted/test?location[directory]=${encodeURIComponent(directory)}`)
      .send({});
    expect(anonymous.status).toBe(401);
  });
});
