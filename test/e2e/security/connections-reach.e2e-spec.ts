import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import OpenAI from 'openai';
import { asPerson, bearer, Person, serviceAccountKey, signup } from '../../helpers/console';
import { ScriptedModelServer } from '../../helpers/scripted-model-server';
import { createTestApp, TestApp } from '../../helpers/test-app';

/** A loopback HTTP server that answers every request with `answer` and counts the sockets opened to it. */
async function rawUpstream(
  answer: (res: import('node:http').ServerResponse) => void,
): Promise<{ server: Server; url: string; sockets: () => number; requests: () => number }> {
  let sockets = 0;
  let requests = 0;
  const server = createServer((_req, res) => {
    requests++;
    answer(res);
  });
  server.on('connection', () => sockets++);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { server, url: `http://127.0.0.1:${port}/v1`, sockets: () => sockets, requests: () => requests };
}

/** Shared by the server processes on the one database, as a cluster's must be. */
const SECRET = 'reach-test-pepper-0123456789abcdef';
const MODELS = { m: { name: 'M', prices: { input: 1, output: 2 } } };

const INTERNAL_URLS = [
  'http://127.0.0.1:5432',
  'http://169.254.169.254/latest/meta-data',
  'http://10.0.0.7/v1',
  'http://172.16.0.1/v1',
  'http://192.168.1.10/v1',
  'http://[::1]:8080/v1',
  'http://0.0.0.0:4096',
  'http://2130706433/v1',
  'http://0x7f.0.0.1/v1',
  'http://017700000001/v1',
  'http://127.1/v1',
  'http://[::ffff:127.0.0.1]/v1',
  'http://[::ffff:a9fe:a9fe]/v1',
  'http://[64:ff9b::a00:1]/v1',
  'http://100.64.0.1/v1',
  'http://[fd00::1]/v1',
  'http://[fe80::1]/v1',
  'http://224.0.0.1/v1',
  'http://localhost:4096/v1',
];

describe('connections never reach inside the network unless the operator allows it', () => {
  let t: TestApp;
  let allowing: TestApp;
  let owner: Person;
  let key: string;

  beforeAll(async () => {
    t = await createTestApp({ env: { OUTPOST_SECRET_KEY: SECRET } });
    allowing = await createTestApp({
      databaseUrl: t.databaseUrl,
      env: { OUTPOST_CONNECTIONS_ALLOW: '127.0.0.1,10.1.2.0/24', OUTPOST_SECRET_KEY: SECRET },
    });
    owner = await signup(t);
    key = (await serviceAccountKey(owner, owner.org, 'inference')).key;
  });
  afterAll(async () => {
    await allowing?.close();
    await t?.close();
  });

  const create = (app: TestApp, baseUrl: string) =>
    asPerson(app, owner.cookie).post(`/console/api/orgs/${owner.org}/connections`, {
      name: 'x',
      base_url: baseUrl,
      schema: 'openai-chat',
      auth: { mode: 'bearer', credential: 'sk-12345678' },
      models: MODELS,
    });

  it.each(INTERNAL_URLS)('%s is refused at creation with 400 naming base_url, and at update', async (url) => {
    const refused = await create(t, url);
    expect(refused.status).toBe(400);
    expect(refused.body.message).toMatch(/^base_url: .*internal address.*OUTPOST_CONNECTIONS_ALLOW/);
    const ok = await create(t, 'https://llm.example/v1');
    expect(ok.status).toBe(201);
    const update = await owner.patch(`/console/api/orgs/${owner.org}/connections/${ok.body.id}`, {
      base_url: url,
    });
    expect(update.status).toBe(400);
    expect(update.body.message).toMatch(/^base_url: /);
    const stored = await owner.get(`/console/api/orgs/${owner.org}/connections/${ok.body.id}`);
    expect(stored.body.base_url).toBe('https://llm.example/v1');
  });

  it('OUTPOST_CONNECTIONS_ALLOW lets named addresses and CIDR ranges in, and nothing else', async () => {
    expect((await create(allowing, 'http://127.0.0.1:9/v1')).status).toBe(201);
    expect((await create(allowing, 'http://10.1.2.77/v1')).status).toBe(201);
    expect((await create(allowing, 'http://10.1.3.1/v1')).status).toBe(400);
    expect((await create(allowing, 'http://[::1]:9/v1')).status).toBe(400);
  });

  it("a connection whose address is inside is refused at call time with 502 in the caller's format, and no socket is opened", async () => {
    const upstream = await rawUpstream((res) => res.end('{}'));
    try {
      // Stored through the process that allows loopback; called through one that does not (as if DNS had changed).
      const created = await create(allowing, upstream.url);
      expect(created.status).toBe(201);
      const client = new OpenAI({
        baseURL: `${t.url}/inference/custom/${created.body.id}`,
        apiKey: key,
        maxRetries: 0,
      });
      const error = await client.chat.completions
        .create({ model: 'm', messages: [{ role: 'user', content: 'hi' }] })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(OpenAI.InternalServerError);
      expect((error as InstanceType<typeof OpenAI.APIError>).status).toBe(502);
      expect((error as Error).message).toContain('127.0.0.1 is an internal address');
      expect(upstream.sockets()).toBe(0);
    } finally {
      upstream.server.close();
    }
  });

  it('a redirect from a connection is not followed: 502, and the target never hears of it', async () => {
    const target = await rawUpstream((res) => res.end('{"secret":"inside"}'));
    const redirecting = await rawUpstream((res) => {
      res.writeHead(307, { location: `${target.url}/chat/completions` });
      res.end();
    });
    try {
      const created = await create(allowing, redirecting.url);
      const res = await allowing.http
        .post(`/inference/custom/${created.body.id}/chat/completions`)
        .set('authorization', bearer(key))
        .send({ model: 'm', messages: [{ role: 'user', content: 'hi' }] });
      expect(res.status).toBe(502);
      expect(res.body.error.message).toContain('redirect (307), which is not followed');
      expect(redirecting.requests()).toBe(1);
      expect(target.requests()).toBe(0);
    } finally {
      target.server.close();
      redirecting.server.close();
    }
  });

  it('a connection pointing at the gateway itself is refused on its first hop (508), and the server stays healthy', async () => {
    const created = await create(allowing, `${allowing.url}/inference/custom/placeholder`);
    const id = created.body.id as string;
    const self = await asPerson(allowing, owner.cookie).patch(
      `/console/api/orgs/${owner.org}/connections/${id}`,
      {
        base_url: `${allowing.url}/inference/custom/${id}`,
        auth: { credential: key },
      },
    );
    expect(self.status).toBe(200);
    const res = await allowing.http
      .post(`/inference/custom/${id}/chat/completions`)
      .set('authorization', bearer(key))
      .send({ model: 'm', messages: [{ role: 'user', content: 'hi' }] });
    // The inner call is refused as a loop; the outer one passes that on as the provider's failure.
    expect([502, 508]).toContain(res.status);
    expect(JSON.stringify(res.body)).toMatch(/already passed through this gateway|answered 508/);
    expect((await allowing.http.get('/health')).status).toBe(200);
  });

  it("a provider refusing the connection's credential is a 502 naming the connection, never the provider's words", async () => {
    const upstream = await rawUpstream((res) => {
      res.writeHead(401, { 'content-type': 'application/json' });
      res.end('{"error":{"message":"Incorrect API key provided: sk-12****5678"}}');
    });
    try {
      const created = await create(allowing, upstream.url);
      const res = await allowing.http
        .post(`/inference/custom/${created.body.id}/chat/completions`)
        .set('authorization', bearer(key))
        .send({ model: 'm', messages: [{ role: 'user', content: 'hi' }] });
      expect(res.status).toBe(502);
      expect(res.body.error.message).toBe(
        `The connection "x" (${created.body.id}) refused the gateway's credential (401); a workspace owner or admin should check its key`,
      );
      expect(JSON.stringify(res.body)).not.toContain('Incorrect API key');
    } finally {
      upstream.server.close();
    }
  });

  it('a whole answer larger than OUTPOST_GATEWAY_MAX_RESPONSE_BYTES is a 502, not held in memory', async () => {
    const upstream = await rawUpstream((res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ choices: [{ message: { content: 'x'.repeat(64 * 1024) } }] }));
    });
    const small = await createTestApp({
      databaseUrl: t.databaseUrl,
      env: {
        OUTPOST_CONNECTIONS_ALLOW: '127.0.0.1',
        OUTPOST_GATEWAY_MAX_RESPONSE_BYTES: '16384',
        OUTPOST_SECRET_KEY: SECRET,
      },
    });
    try {
      const created = await create(small, upstream.url);
      const res = await small.http
        .post(`/inference/custom/${created.body.id}/chat/completions`)
        .set('authorization', bearer(key))
        .send({ model: 'm', messages: [{ role: 'user', content: 'hi' }] });
      expect(res.status).toBe(502);
      expect(res.body.error.message).toContain('larger than 16384 bytes');
    } finally {
      await small.close();
      upstream.server.close();
    }
  });

  it("a provider's 429 keeps its Retry-After", async () => {
    const upstream = await ScriptedModelServer.start();
    try {
      upstream.script(
        ...Array.from({ length: 3 }, () => ({
          error: { status: 429, message: 'slow', headers: { 'retry-after': '7' } },
        })),
      );
      const created = await create(allowing, upstream.baseURL);
      const res = await allowing.http
        .post(`/inference/custom/${created.body.id}/chat/completions`)
        .set('authorization', bearer(key))
        .send({ model: 'm', messages: [{ role: 'user', content: 'hi' }] });
      expect(res.status).toBe(429);
      expect(res.headers['retry-after']).toBe('7');
    } finally {
      await upstream.close();
    }
  });
});
