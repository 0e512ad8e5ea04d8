import { bearer, Person, serviceAccountKey, signup } from '../../helpers/console';
import { gatewayCatalogue } from '../../helpers/gateway-catalogue';
import { createTestApp, TestApp } from '../../helpers/test-app';

const CONFIG = '/console/api/v2/config';

/**
 * The workspace config offers, with no provider written by hand, the gateway's catalogue and the workspace's
 * connections, keyed with the variable opencode's CLI fills with its console token.
 */
describe("the workspace config offers the gateway's models and the workspace's connections", () => {
  let t: TestApp;
  let owner: Person;
  let key: string;

  beforeAll(async () => {
    const file = gatewayCatalogue(
      `providers:
  up:
    base_url: http://127.0.0.1:9/v1
    schema: openai-chat
    api_key_env: UP_KEY
    models:
      small: { prices: { input: 1, output: 2 } }
      large: { prices: { input: 1, output: 2 } }
      embed: { kind: embedding, prices: { input: 1, output: 0 } }
  claude:
    base_url: http://127.0.0.1:9/v1
    schema: anthropic
    api_key_env: UP_KEY
    models:
      haiku: { prices: { input: 1, output: 5 } }
routes:
  smart:
    deployments: [up/small]
`,
    );
    t = await createTestApp({
      env: { OUTPOST_GATEWAY_CONFIG: file, UP_KEY: 'sk-up', OUTPOST_CONNECTIONS_ALLOW: '127.0.0.1' },
    });
    owner = await signup(t);
    key = (await serviceAccountKey(owner, owner.org, 'inference')).key;
  });
  afterAll(async () => {
    await t?.close();
  });

  const read = () => t.http.get(CONFIG).set('authorization', bearer(key));

  it('offers one provider per API of the catalogue, chat models and routes only, keyed {env:OPENCODE_CONSOLE_TOKEN}', async () => {
    const res = await read();
    expect(res.status).toBe(200);
    expect(res.body.providers.outpost).toEqual({
      name: 'Outpost gateway',
      env: ['OPENCODE_CONSOLE_TOKEN'],
      package: 'aisdk:@ai-sdk/openai-compatible',
      settings: { baseURL: `${t.url}/inference/openai/v1`, apiKey: '{env:OPENCODE_CONSOLE_TOKEN}' },
      headers: { 'x-org-id': owner.org },
      models: {
        'up/small': { name: 'up/small' },
        'up/large': { name: 'up/large' },
        smart: { name: 'smart' },
      },
    });
    expect(res.body.providers['outpost-anthropic']).toMatchObject({
      package: 'aisdk:@ai-sdk/anthropic',
      settings: { baseURL: `${t.url}/inference/anthropic/v1`, apiKey: '{env:OPENCODE_CONSOLE_TOKEN}' },
      models: { 'claude/haiku': { name: 'claude/haiku' } },
    });
    // opencode's released CLI reads the same through /console/api/config, as options.
    const cli = await t.http.get('/console/api/config').set('authorization', bearer(key));
    expect(cli.body.config.provider.outpost.options).toMatchObject({
      baseURL: `${t.url}/inference/openai/v1`,
      apiKey: '{env:OPENCODE_CONSOLE_TOKEN}',
      headers: { 'x-org-id': owner.org },
    });
  });

  it("offers each connection at its own gateway route; the workspace's policies and an admin's own entry win", async () => {
    const before = await read();
    const connection = await owner.post(`/console/api/orgs/${owner.org}/connections`, {
      name: 'Our vLLM',
      base_url: 'http://127.0.0.1:9/v1',
      schema: 'openai-chat',
      auth: { mode: 'bearer', credential: 'sk-connection' },
      models: { llama: { name: 'Llama' }, qwen: { name: 'Qwen' } },
    });
    expect(connection.status).toBe(201);
    const id = connection.body.id as string;
    const after = await read();
    expect(after.headers.etag).not.toBe(before.headers.etag);
    expect(after.body.providers[id]).toMatchObject({
      name: 'Our vLLM',
      package: 'aisdk:@ai-sdk/openai-compatible',
      settings: { baseURL: `${t.url}/inference/custom/${id}/v1`, apiKey: '{env:OPENCODE_CONSOLE_TOKEN}' },
      headers: { 'x-org-id': owner.org },
      models: { llama: { name: 'Llama' }, qwen: { name: 'Qwen' } },
    });
    expect(JSON.stringify(after.body)).not.toContain('sk-connection');
    // A denied model is not offered; the unchanged config answers 304 to its ETag.
    const denied = await owner.put(`/console/api/orgs/${owner.org}/config`, {
      policies: [
        { action: 'provider.use', resource: 'up/large', effect: 'deny' },
        { action: 'provider.use', resource: `${id}/qwen`, effect: 'deny' },
      ],
    });
    expect(denied.status).toBe(200);
    const narrowed = await read();
    expect(Object.keys(narrowed.body.providers.outpost.models)).toEqual(['smart', 'up/small']);
    expect(Object.keys(narrowed.body.providers[id].models)).toEqual(['llama']);
    const again = await read().set('if-none-match', narrowed.headers.etag);
    expect(again.status).toBe(304);
    // A provider the admins wrote under the same id is served as they wrote it.
    const own = await owner.put(`/console/api/orgs/${owner.org}/config`, {
      providers: {
        outpost: {
          name: 'Ours',
          env: ['OUTPOST_API_KEY'],
          package: 'aisdk:@ai-sdk/openai-compatible',
          settings: { baseURL: 'https://elsewhere.example.com/v1' },
          models: { mine: { name: 'Mine' } },
        },
      },
    });
    expect(own.body).toMatchObject({ providers: { outpost: { name: 'Ours' } } });
    expect((await read()).body.providers.outpost).toMatchObject({
      name: 'Ours',
      models: { mine: { name: 'Mine' } },
    });
  });
});
