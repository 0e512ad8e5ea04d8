import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { bearer, Person, serviceAccountKey, signup } from '../../helpers/console';
import { ScriptedModelServer } from '../../helpers/scripted-model-server';
import { createTestApp, TestApp } from '../../helpers/test-app';

/** What broke for teams using connections with the official SDKs, each as the SDK sends it. */
describe("a workspace connection's models, by every path the official SDKs take", () => {
  let t: TestApp;
  let upstream: ScriptedModelServer;
  let owner: Person;
  let key: string;
  let openaiConn: string;
  let anthropicConn: string;

  beforeAll(async () => {
    upstream = await ScriptedModelServer.start();
    t = await createTestApp({ env: { OUTPOST_CONNECTIONS_ALLOW: '127.0.0.1' } });
    owner = await signup(t);
    key = (await serviceAccountKey(owner, owner.org, 'inference')).key;
    const create = async (schema: string, model: string) => {
      const res = await owner.post(`/console/api/orgs/${owner.org}/connections`, {
        name: `${schema} connection`,
        base_url: upstream.baseURL,
        schema,
        auth: { mode: 'bearer', credential: 'sk-connection-secret' },
        models: { [model]: { name: `${model} model`, prices: { input: 1, output: 2 } } },
      });
      expect(res.status).toBe(201);
      return res.body.id as string;
    };
    openaiConn = await create('openai-chat', 'ok');
    anthropicConn = await create('anthropic', 'claude-ok');
  });
  afterAll(async () => {
    await t?.close();
    await upstream?.close();
  });

  it('the id GET /inference/v1/models lists for a connection model answers on the catalogue routes', async () => {
    const list = await t.http.get('/inference/v1/models').set('authorization', bearer(key));
    const ids = (list.body.data as Array<{ id: string }>).map((model) => model.id);
    expect(ids).toEqual(expect.arrayContaining([`${openaiConn}/ok`, `${anthropicConn}/claude-ok`]));
    const client = new OpenAI({ baseURL: `${t.url}/inference/openai/v1`, apiKey: key, maxRetries: 0 });
    upstream.script({ text: 'by the listed id', usage: { input: 3, output: 2 } });
    const answer = await client.chat.completions.create({
      model: `${openaiConn}/ok`,
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(answer.choices[0].message.content).toBe('by the listed id');
    expect(upstream.requests.at(-1)!.body.model).toBe('ok');
    expect(upstream.requests.at(-1)!.headers.authorization).toBe('Bearer sk-connection-secret');
    const anthropic = new Anthropic({ baseURL: `${t.url}/inference/anthropic`, apiKey: key, maxRetries: 0 });
    upstream.script({ text: 'claude by id', usage: { input: 3, output: 2 } });
    const message = await anthropic.messages.create({
      model: `${anthropicConn}/claude-ok`,
      max_tokens: 20,
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(message.content[0]).toMatchObject({ type: 'text', text: 'claude by id' });
  });

  it("the Anthropic SDK given <inference>/custom/<conn> posts to …/v1/messages, and lists the connection's models", async () => {
    const client = new Anthropic({
      baseURL: `${t.url}/inference/custom/${anthropicConn}`,
      apiKey: key,
      maxRetries: 0,
    });
    upstream.script({ text: 'through the SDK path', usage: { input: 3, output: 2 } });
    const message = await client.messages.create({
      model: 'claude-ok',
      max_tokens: 20,
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(message.content[0]).toMatchObject({ type: 'text', text: 'through the SDK path' });
    const models = await client.models.list();
    expect(models.data.map((model) => model.id)).toEqual(['claude-ok']);
    expect(models.data[0].display_name).toBe('claude-ok model');
    const wrong = await client.messages
      .create({ model: 'nope', max_tokens: 5, messages: [{ role: 'user', content: 'x' }] })
      .catch((error: unknown) => error);
    expect(wrong).toBeInstanceOf(Anthropic.NotFoundError);
  });

  it('the OpenAI SDK given <inference>/custom/<conn>/v1 works the same, models included', async () => {
    const client = new OpenAI({
      baseURL: `${t.url}/inference/custom/${openaiConn}/v1`,
      apiKey: key,
      maxRetries: 0,
    });
    upstream.script({ text: 'v1 path', usage: { input: 3, output: 2 } });
    const answer = await client.chat.completions.create({
      model: 'ok',
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(answer.choices[0].message.content).toBe('v1 path');
    expect((await client.models.list()).data.map((model) => model.id)).toEqual(['ok']);
  });

  it("a call without a key on a connection's /v1 paths gets the 401 of the path without /v1, in its API's shape", async () => {
    for (const path of ['', '/v1']) {
      const chat = await t.http
        .post(`/inference/custom/${openaiConn}${path}/chat/completions`)
        .send({ model: 'ok', messages: [] });
      expect([path, chat.status, chat.body.error?.type]).toEqual([path, 401, 'authentication_error']);
      const messages = await t.http
        .post(`/inference/custom/${anthropicConn}${path}/messages`)
        .send({ model: 'claude-ok', max_tokens: 5, messages: [] });
      expect([path, messages.status, messages.body.type, messages.body.error?.type]).toEqual([
        path,
        401,
        'error',
        'authentication_error',
      ]);
      const models = await t.http.get(`/inference/custom/${openaiConn}${path}/models`);
      expect([path, models.status]).toEqual([path, 401]);
    }
    // Only a connection's own /v1 is taken away: the catalogue's routes keep theirs, and nothing else is found.
    expect((await t.http.post('/inference/custom/x/v1/v1/chat/completions').send({})).status).toBe(404);
  });

  it("the request log names a connection call's route alike on the SDK's /v1 path and without it", async () => {
    const { key: own, keyId } = await serviceAccountKey(owner, owner.org, 'inference');
    upstream.script(
      { text: 'a', usage: { input: 1, output: 1 } },
      { text: 'b', usage: { input: 1, output: 1 } },
    );
    for (const path of ['/v1', '']) {
      const res = await t.http
        .post(`/inference/custom/${openaiConn}${path}/chat/completions`)
        .set('authorization', bearer(own))
        .send({ model: 'ok', messages: [{ role: 'user', content: 'x' }] });
      expect(res.status).toBe(200);
    }
    let routes: string[] = [];
    for (let i = 0; i < 40 && routes.length < 2; i++) {
      const log = await owner.get(`/console/api/orgs/${owner.org}/usage/requests?key=${keyId}`);
      routes = log.body.data.map((row: { route: string }) => row.route);
      if (routes.length < 2) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(routes).toEqual([
      '/inference/custom/:connection/chat/completions',
      '/inference/custom/:connection/chat/completions',
    ]);
  });

  it('a chat stream that did not ask for usage gets no usage event; one that asked gets it', async () => {
    const client = new OpenAI({
      baseURL: `${t.url}/inference/custom/${openaiConn}`,
      apiKey: key,
      maxRetries: 0,
    });
    const chunks = async (include: boolean) => {
      upstream.script({ text: ['one ', 'two'], usage: { input: 3, output: 2 } });
      const stream = await client.chat.completions.create({
        model: 'ok',
        stream: true,
        messages: [{ role: 'user', content: 'hi' }],
        ...(include ? { stream_options: { include_usage: true } } : {}),
      });
      const seen = [];
      for await (const chunk of stream) seen.push(chunk);
      return seen;
    };
    const plain = await chunks(false);
    expect(plain.map((chunk) => chunk.choices[0]?.delta?.content ?? '').join('')).toBe('one two');
    expect(plain.every((chunk) => chunk.choices.length > 0 && !chunk.usage)).toBe(true);
    expect(upstream.requests.at(-1)!.body.stream_options).toEqual({ include_usage: true });
    const asked = await chunks(true);
    expect(asked.at(-1)).toMatchObject({ choices: [], usage: { prompt_tokens: 3, completion_tokens: 2 } });
  });
});
