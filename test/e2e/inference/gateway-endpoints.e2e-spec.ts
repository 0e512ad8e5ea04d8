import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { bearer, Person, serviceAccountKey, signup } from '../../helpers/console';
import { eventually } from '../../helpers/eventually';
import { ScriptedModelServer } from '../../helpers/scripted-model-server';
import { gatewayCatalogue } from '../../helpers/gateway-catalogue';
import { createTestApp, TestApp } from '../../helpers/test-app';

/**
 * The rest of the two APIs, with the official SDKs: OpenAI's embeddings, legacy completions and one model,
 * Anthropic's model list and token count, on the catalogue's routes and a connection's, with the same keys,
 * policies and budgets as chat.
 */
describe('embeddings, completions, one model, Anthropic models and token counts through the gateway', () => {
  let t: TestApp;
  let upstream: ScriptedModelServer;
  let owner: Person;
  let key: string;
  let sa: string;
  let openai: OpenAI;
  let anthropic: Anthropic;

  beforeAll(async () => {
    upstream = await ScriptedModelServer.start();
    upstream.answerUnstreamed = true;
    const file = gatewayCatalogue(
      `providers:
  up:
    base_url: ${upstream.baseURL}
    schema: openai-chat
    api_key_env: UP_KEY
    models:
      embed: { kind: embedding, prices: { input: 2, output: 0 } }
      small: { kind: chat, prices: { input: 1, output: 2 } }
      any: { prices: { input: 1, output: 2 } }
  claude:
    base_url: ${upstream.baseURL}
    schema: anthropic
    api_key_env: UP_KEY
    models:
      haiku: { prices: { input: 1, output: 5 } }
`,
    );
    t = await createTestApp({
      env: { OUTPOST_GATEWAY_CONFIG: file, UP_KEY: 'sk-up', OUTPOST_CONNECTIONS_ALLOW: '127.0.0.1' },
    });
    owner = await signup(t);
    const created = await serviceAccountKey(owner, owner.org, 'inference');
    key = created.key;
    sa = created.sa;
    openai = new OpenAI({ baseURL: `${t.url}/inference/openai/v1`, apiKey: key, maxRetries: 0 });
    anthropic = new Anthropic({ baseURL: `${t.url}/inference/anthropic`, apiKey: key, maxRetries: 0 });
  });
  afterAll(async () => {
    await t?.close();
    await upstream?.close();
  });

  const usageByModel = async () => {
    for (const node of t.nodes) await node.flush();
    const report = await owner.get(
      `/console/api/orgs/${owner.org}/usage?group_by=model&from=2000-01-01T00:00:00Z`,
    );
    return new Map(
      (
        report.body.data as Array<{
          key: string;
          input_tokens: number;
          output_tokens: number;
          spent_micro_cents: string;
        }>
      ).map((row) => [row.key, row]),
    );
  };

  it('embeddings answer in the SDK, are metered on their input tokens, and reach the provider at /embeddings', async () => {
    upstream.script({ usage: { input: 7, output: 0 } });
    const result = await openai.embeddings.create({ model: 'up/embed', input: ['one', 'two'] });
    expect(result.data).toHaveLength(2);
    expect(result.data[0].embedding).toEqual([0.5, 0.25, 0.125]);
    expect(upstream.requests.at(-1)).toMatchObject({ path: '/v1/embeddings', body: { model: 'embed' } });
    expect((await usageByModel()).get('up/embed')).toMatchObject({
      input_tokens: 7,
      output_tokens: 0,
      spent_micro_cents: '1400', // 7 tokens × $2 per million = 1,400 micro-cents
    });
    // A model without a kind serves both; a stream is refused by field.
    upstream.script({ usage: { input: 1, output: 0 } });
    expect((await openai.embeddings.create({ model: 'up/any', input: 'x' })).data).toHaveLength(1);
    const streamed = await t.http
      .post('/inference/openai/v1/embeddings')
      .set('authorization', bearer(key))
      .send({ model: 'up/embed', input: 'x', stream: true });
    expect(streamed.status).toBe(400);
    expect(streamed.body.error.message).toBe('stream: is not offered by this endpoint');
  });

  it("a model's kind keeps it to its routes: an embedding model off chat, a chat model off embeddings", async () => {
    const chat = await openai.chat.completions
      .create({ model: 'up/embed', messages: [{ role: 'user', content: 'x' }] })
      .catch((error: unknown) => error);
    expect(chat).toBeInstanceOf(OpenAI.BadRequestError);
    expect((chat as Error).message).toContain(
      'model: "up/embed" is an embedding model, served at the /inference/openai/v1/embeddings route',
    );
    const embed = await openai.embeddings
      .create({ model: 'up/small', input: 'x' })
      .catch((error: unknown) => error);
    expect(embed).toBeInstanceOf(OpenAI.BadRequestError);
    expect((embed as Error).message).toContain(
      'model: "up/small" is a chat model, not served for embeddings',
    );
  });

  it('legacy completions answer whole and streamed, metered; a stream that did not ask for usage gets none', async () => {
    upstream.script({ text: 'completed', usage: { input: 4, output: 3 } });
    const whole = await openai.completions.create({ model: 'up/small', prompt: 'say', max_tokens: 20 });
    expect(whole.choices[0].text).toBe('completed');
    expect(upstream.requests.at(-1)!.path).toBe('/v1/completions');
    upstream.script({ text: ['str', 'eamed'], usage: { input: 4, output: 2 } });
    const stream = await openai.completions.create({
      model: 'up/small',
      prompt: 'say',
      max_tokens: 20,
      stream: true,
    });
    let text = '';
    const chunks = [];
    for await (const chunk of stream) {
      chunks.push(chunk);
      text += chunk.choices[0]?.text ?? '';
    }
    expect(text).toBe('streamed');
    expect(chunks.some((chunk) => chunk.usage)).toBe(false);
    // The gateway asked the provider for usage, so the stream is metered at the provider's figures.
    expect(upstream.requests.at(-1)!.body.stream_options).toEqual({ include_usage: true });
    expect((await usageByModel()).get('up/small')).toMatchObject({ input_tokens: 8, output_tokens: 5 });
  });

  it('one model by id (404 in the SDK class for an unknown one); Anthropic lists and reads models in its shape', async () => {
    const model = await openai.models.retrieve('up/small');
    expect(model).toMatchObject({ id: 'up/small', object: 'model', owned_by: 'up' });
    expect(await openai.models.retrieve('nope').catch((error: unknown) => error)).toBeInstanceOf(
      OpenAI.NotFoundError,
    );
    const page = await anthropic.models.list();
    expect(page.data.map((entry) => entry.id)).toEqual(expect.arrayContaining(['claude/haiku', 'up/small']));
    expect(page.data[0]).toMatchObject({ type: 'model', display_name: expect.any(String) });
    expect(await anthropic.models.retrieve('claude/haiku')).toMatchObject({
      id: 'claude/haiku',
      type: 'model',
    });
  });

  it("Anthropic's token count answers the provider's count, free of charge", async () => {
    upstream.script({ usage: { input: 42, output: 0 } });
    const counted = await anthropic.messages.countTokens({
      model: 'claude/haiku',
      messages: [{ role: 'user', content: 'how many?' }],
    });
    expect(counted.input_tokens).toBe(42);
    expect(upstream.requests.at(-1)).toMatchObject({
      path: '/v1/messages/count_tokens',
      body: { model: 'haiku' },
    });
    expect(upstream.requests.at(-1)!.headers['x-api-key']).toBe('sk-up');
    expect((await usageByModel()).get('claude/haiku')?.spent_micro_cents ?? '0').toBe('0');
  });

  it('keys, budgets and connections apply to them as to chat', async () => {
    // A key held to one model gets 403 on the embeddings route for another.
    const limited = await owner.post(`/console/api/orgs/${owner.org}/service-accounts/${sa}/keys`, {
      name: 'chat only',
      permission: 'inference',
      allowed_models: ['up/small'],
    });
    const held = new OpenAI({
      baseURL: `${t.url}/inference/openai/v1`,
      apiKey: limited.body.key,
      maxRetries: 0,
    });
    expect(
      await held.embeddings.create({ model: 'up/embed', input: 'x' }).catch((error: unknown) => error),
    ).toBeInstanceOf(OpenAI.PermissionDeniedError);
    // A member whose budget is used up: embeddings (which cost) are refused, token counts (free) are not.
    const budget = `/console/api/v1/budgets/members/${sa}`;
    expect((await owner.put(budget, { budget_dollars: 0 }).set('x-org-id', owner.org)).status).toBe(204);
    // Behind a balancer the budget may have been set on another node, whose notice comes within a second.
    const refused = await eventually(
      () => openai.embeddings.create({ model: 'up/embed', input: 'x' }).catch((error: unknown) => error),
      (outcome) => (outcome as InstanceType<typeof OpenAI.APIError>).status === 402,
      5_000,
    );
    expect((refused as InstanceType<typeof OpenAI.APIError>).status).toBe(402);
    upstream.script({ usage: { input: 3, output: 0 } });
    expect(
      (
        await anthropic.messages.countTokens({
          model: 'claude/haiku',
          messages: [{ role: 'user', content: 'x' }],
        })
      ).input_tokens,
    ).toBe(3);
    expect((await owner.del(budget).set('x-org-id', owner.org)).status).toBe(204);
    // A connection's embeddings, at the SDK's own path under the connection's base URL.
    const connection = await owner.post(`/console/api/orgs/${owner.org}/connections`, {
      name: 'embedder',
      base_url: upstream.baseURL,
      schema: 'openai-chat',
      auth: { mode: 'bearer', credential: 'sk-connection' },
      models: {
        'text-embed': { name: 'Text embed', prices: { input: 1, output: 0 }, kind: 'embedding' },
        chatty: { name: 'Chatty', kind: 'chat' },
      },
    });
    expect(connection.status).toBe(201);
    expect(connection.body.models['text-embed'].kind).toBe('embedding');
    const byConnection = new OpenAI({
      baseURL: `${t.url}/inference/custom/${connection.body.id}/v1`,
      apiKey: key,
      maxRetries: 0,
    });
    upstream.script({ usage: { input: 5, output: 0 } });
    const vectors = await byConnection.embeddings.create({ model: 'text-embed', input: 'x' });
    expect(vectors.data).toHaveLength(1);
    expect(upstream.requests.at(-1)!.headers.authorization).toBe('Bearer sk-connection');
    expect((await usageByModel()).get(`${connection.body.id}/text-embed`)).toMatchObject({ input_tokens: 5 });
    // A connection's models keep to their kind too, and a kind that is neither is refused by field.
    const chatOnEmbed = await byConnection.chat.completions
      .create({ model: 'text-embed', messages: [{ role: 'user', content: 'x' }] })
      .catch((error: unknown) => error);
    expect((chatOnEmbed as Error).message).toContain(
      `"${connection.body.id}/text-embed" is an embedding model`,
    );
    const embedOnChat = await byConnection.embeddings
      .create({ model: 'chatty', input: 'x' })
      .catch((error: unknown) => error);
    expect(embedOnChat).toBeInstanceOf(OpenAI.BadRequestError);
    const wrongKind = await owner.patch(`/console/api/orgs/${owner.org}/connections/${connection.body.id}`, {
      models: { chatty: { name: 'Chatty', kind: 'vector' } },
    });
    expect(wrongKind.status).toBe(400);
    expect(wrongKind.body.message).toBe('models.chatty.kind: must be chat or embedding');
    // The workspace config offers the connection's chat model, not its embedding model.
    const offered = await t.http.get('/console/api/v2/config').set('authorization', bearer(key));
    expect(Object.keys(offered.body.providers[connection.body.id].models)).toEqual(['chatty']);
  });
});
