import { createServer, Server } from 'node:net';
import { Person, signupTeam } from '../../helpers/console';
import { ScriptedModelServer } from '../../helpers/scripted-model-server';
import { createTestApp, TestApp } from '../../helpers/test-app';

/**
 * "Test" on a connection: one small real call through the gateway's path, answered within 5 s with what happened,
 * naming the connection, the URL and the cause.
 */
describe('POST /console/api/orgs/{org}/connections/{id}/test', () => {
  let t: TestApp;
  let upstream: ScriptedModelServer;
  let team: Awaited<ReturnType<typeof signupTeam>>;
  let owner: Person;

  beforeAll(async () => {
    upstream = await ScriptedModelServer.start();
    t = await createTestApp({ env: { OUTPOST_CONNECTIONS_ALLOW: '127.0.0.1' } });
    team = await signupTeam(t);
    owner = team.owner;
  });
  afterAll(async () => {
    await t.close();
    await upstream.close();
  });

  const connect = async (
    baseURL: string,
    schema = 'openai-chat',
    models: object = { tiny: { name: 'Tiny' } },
  ) => {
    const created = await owner.post(`/console/api/orgs/${owner.org}/connections`, {
      name: 'Our vLLM',
      base_url: baseURL,
      schema,
      auth: { mode: 'bearer', credential: 'sk-connection-credential' },
      models,
    });
    expect(created.status).toBe(201);
    return created.body.id as string;
  };
  const test = (id: string, who: Person = owner) =>
    who.post(`/console/api/orgs/${owner.org}/connections/${id}/test`);

  it('a working connection: one call of one token with its credential, and what answered', async () => {
    const id = await connect(upstream.baseURL);
    upstream.script({ text: 'p', usage: { input: 1, output: 1 } });
    const before = upstream.requests.length;
    const res = await test(id);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      ok: true,
      status: 200,
      connection_id: id,
      connection_name: 'Our vLLM',
      url: `${upstream.baseURL}/chat/completions`,
      model: 'tiny',
    });
    expect(res.body.message).toMatch(
      new RegExp(
        `^Connection “Our vLLM” at ${upstream.baseURL}/chat/completions answered \\(model tiny, HTTP 200, \\d+ ms\\)\\.$`,
      ),
    );
    expect(upstream.requests.length).toBe(before + 1);
    const sent = upstream.requests.at(-1)!;
    expect(sent.headers.authorization).toBe('Bearer sk-connection-credential');
    expect(sent.body).toMatchObject({ model: 'tiny', max_tokens: 1 });
  });

  it("a refusal names the provider's words and what to check; an Anthropic connection is tried in its own shape", async () => {
    const id = await connect(upstream.baseURL, 'anthropic', { claude: { name: 'Claude' } });
    upstream.script({ error: { status: 401, message: 'invalid x-api-key' } });
    const res = await test(id);
    expect(res.body).toMatchObject({ ok: false, status: 401, url: `${upstream.baseURL}/messages` });
    expect(res.body.message).toBe(
      `Connection “Our vLLM” at ${upstream.baseURL}/messages refused the call with HTTP 401: invalid x-api-key. Check the credential.`,
    );
    expect(upstream.requests.at(-1)!.body).toMatchObject({ model: 'claude', max_tokens: 1 });
  });

  it('nothing listening, or an answer that never starts: said in words, within 5 s', async () => {
    // A port that was free a moment ago: nothing answers there.
    const port = await new Promise<number>((resolve) => {
      const probe: Server = createServer().listen(0, '127.0.0.1', () => {
        const { port } = probe.address() as { port: number };
        probe.close(() => resolve(port));
      });
    });
    const refused = await test(await connect(`http://127.0.0.1:${port}/v1`));
    expect(refused.body).toMatchObject({ ok: false, status: null });
    expect(refused.body.message).toBe(
      `Connection “Our vLLM” at http://127.0.0.1:${port}/v1/chat/completions could not be reached: nothing answers at that address and port (connection refused). Check the base URL.`,
    );

    const slow = await connect(upstream.baseURL);
    upstream.script({ text: 'late', delayMs: 8_000 });
    const started = Date.now();
    const late = await test(slow);
    expect(Date.now() - started).toBeLessThan(7_500);
    expect(late.body).toMatchObject({ ok: false, status: null });
    expect(late.body.message).toBe(
      `Connection “Our vLLM” at ${upstream.baseURL}/chat/completions did not answer within 5 s. Check the base URL.`,
    );
  });

  it('a connection without a chat model says so; members may not test; another workspace’s id is 404', async () => {
    const embeddingsOnly = await connect(upstream.baseURL, 'openai-chat', {
      emb: { name: 'E', kind: 'embedding' },
    });
    const none = await test(embeddingsOnly);
    expect(none.body).toMatchObject({ ok: false, model: null });
    expect(none.body.message).toContain('it has no chat model to try');
    const id = await connect(upstream.baseURL);
    expect((await test(id, team.member)).status).toBe(403);
    expect((await team.stranger.post(`/console/api/orgs/${owner.org}/connections/${id}/test`)).status).toBe(
      403,
    );
    expect((await test('conn_01ABCDEFGHJKMNPQRSTVWXYZ00')).status).toBe(404);
  });
});
