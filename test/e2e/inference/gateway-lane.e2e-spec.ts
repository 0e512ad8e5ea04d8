import { request as httpRequest } from 'node:http';
import request from 'supertest';
import { bearer, Person, serviceAccountKey, signup } from '../../helpers/console';
import { eventually } from '../../helpers/eventually';
import { startGatewayServer } from '../../helpers/gateway-server';
import { ServerProcess } from '../../helpers/processes';
import { ScriptedModelServer } from '../../helpers/scripted-model-server';
import { TestApp } from '../../helpers/test-app';
import { createTestDatabase } from '../../helpers/test-database';

jest.setTimeout(300_000);

const UPSTREAM_KEY = 'sk-upstream-lane-90d2';
const CHAT = '/inference/openai/v1/chat/completions';
/** The text of a chat completion answer. */
const content = async (res: Response) =>
  ((await res.json()) as { choices: Array<{ message: { content: string } }> }).choices[0].message.content;
const ASK = JSON.stringify({ model: 'small', messages: [{ role: 'user', content: 'hi' }] });

interface LogLine {
  level: number;
  msg?: string;
  reqId?: string;
  req?: { method: string; url: string; remoteAddress: string };
  res?: { statusCode: number };
}

/** A request whose body is announced but never sent: the answer must come without the server reading it. */
function announcedBody(url: string, headers: Record<string, string>, length: number) {
  return new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = httpRequest(
      `${url}${CHAT}`,
      {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json', 'content-length': length },
      },
      (res) => {
        let body = '';
        res.on('data', (chunk) => (body += chunk));
        res.on('end', () => {
          req.destroy();
          resolve({ status: res.statusCode!, body });
        });
      },
    );
    req.on('error', reject);
    req.write('{"model":"small",');
  });
}

/**
 * Model calls with a key are answered on node's server before Fastify routes them (src/common/http/http-lanes.ts).
 * What Fastify's hooks give every other request must hold for them too: run in a real `outpost serve`.
 */
describe('model calls answered before Fastify, in a real `outpost serve`', () => {
  let server: ServerProcess;
  let database: { url?: string; drop: () => Promise<void> };
  let upstream: ScriptedModelServer;
  let owner: Person;
  let key: string;

  beforeAll(async () => {
    upstream = await ScriptedModelServer.start();
    database = await createTestDatabase();
    server = await startGatewayServer(upstream, database.url!, UPSTREAM_KEY, {
      OUTPOST_PASSWORD: 'lane-password-1',
      OUTPOST_TRUST_PROXY: '127.0.0.1',
      OUTPOST_METRICS_TOKEN: 'lane-metrics',
      OUTPOST_CONNECTIONS_ALLOW: '127.0.0.1',
      LOG_LEVEL: 'info',
      LOG_FORMAT: 'json',
    });
    const t = { url: server.url, http: request(server.url) } as TestApp;
    owner = await signup(t);
    key = (await serviceAccountKey(owner, owner.org, 'inference')).key;
  });

  afterAll(async () => {
    server.child.kill('SIGTERM');
    await server.exited;
    await database.drop();
    await upstream.close();
  });

  const call = (path: string, headers: Record<string, string>, body = ASK, signal?: AbortSignal) =>
    fetch(`${server.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body,
      signal,
    });
  const metrics = async () =>
    (await fetch(`${server.url}/metrics`, { headers: { authorization: 'Bearer lane-metrics' } })).text();

  it('a model call carries the security headers of every other route, echoes its request id and has its length', async () => {
    upstream.script({ text: 'ok', usage: { input: 1, output: 1 } });
    const answered = await call(CHAT, { authorization: bearer(key), 'x-request-id': 'lane-trace-1' });
    expect(answered.status).toBe(200);
    expect(answered.headers.get('x-request-id')).toBe('lane-trace-1');
    // A whole answer is sent with its length, not chunked.
    expect(answered.headers.get('content-length')).toBe(String(Buffer.byteLength(await answered.text())));
    const viaFastify = await fetch(`${server.url}/inference/v1/models`);
    expect(viaFastify.status).toBe(200);
    for (const name of [
      'content-security-policy',
      'x-content-type-options',
      'x-frame-options',
      'referrer-policy',
      'cross-origin-resource-policy',
    ]) {
      expect(viaFastify.headers.get(name)).toBeTruthy();
      expect(answered.headers.get(name)).toBe(viaFastify.headers.get(name));
    }
  });

  it('each model call is one log line, with the client behind the trusted proxy, its level by status, and no key', async () => {
    upstream.script({ text: 'ok', usage: { input: 1, output: 1 } });
    const ok = await call(CHAT, {
      authorization: bearer(key),
      'x-request-id': 'lane-log-ok',
      'x-forwarded-for': '203.0.113.7',
    });
    const denied = await call(CHAT, {
      'x-api-key': 'oc_sk_not-a-real-key',
      'x-request-id': 'lane-log-denied',
    });
    expect([ok.status, denied.status]).toEqual([200, 401]);
    await ok.text();
    // The server writes a request's line once the response has finished, on its own time.
    const completed = () =>
      server
        .output()
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .map((line) => JSON.parse(line) as LogLine)
        .filter((line) => line.msg === 'request completed');
    const lines = await eventually(completed, (found) =>
      ['lane-log-ok', 'lane-log-denied'].every((id) => found.some((line) => line.reqId === id)),
    );
    expect(lines.filter((line) => line.reqId === 'lane-log-ok')).toEqual([
      expect.objectContaining({
        level: 30,
        req: { method: 'POST', url: CHAT, remoteAddress: '203.0.113.7' },
        res: { statusCode: 200 },
      }),
    ]);
    expect(lines.find((line) => line.reqId === 'lane-log-denied')).toMatchObject({
      level: 40,
      res: { statusCode: 401 },
    });
    expect(server.output()).not.toContain(key);
    expect(server.output()).not.toContain(UPSTREAM_KEY);
  });

  it('/metrics counts model calls by route pattern, not by path', async () => {
    const created = await owner.post(`/console/api/orgs/${owner.org}/connections`, {
      name: 'Ours',
      base_url: upstream.baseURL,
      schema: 'openai-chat',
      auth: { mode: 'bearer', credential: 'byok-lane-credential' },
      models: { mine: { name: 'Mine' } },
    });
    expect(created.status).toBe(201);
    upstream.script({ text: 'ok', usage: { input: 1, output: 1 } });
    const custom = await call(
      `/inference/custom/${created.body.id}/chat/completions`,
      { authorization: bearer(key) },
      JSON.stringify({ model: 'mine', messages: [{ role: 'user', content: 'hi' }] }),
    );
    expect(custom.status).toBe(200);
    const counted = await metrics();
    expect(counted).toMatch(
      /outpost_http_requests_total\{route="\/inference\/custom\/:connection\/chat\/completions",method="POST",status="200"\} 1/,
    );
    expect(counted).toMatch(
      /outpost_http_requests_total\{route="\/inference\/openai\/v1\/chat\/completions",method="POST",status="200"\} \d+/,
    );
    expect(counted).not.toContain(`route="/inference/custom/${created.body.id}`);
  });

  it('a query string or a trailing slash reaches the model call; a bad %-encoding in a connection id is a 400', async () => {
    upstream.script(
      { text: 'slash', usage: { input: 1, output: 1 } },
      { text: 'query', usage: { input: 1, output: 1 } },
    );
    const slash = await call(`${CHAT}/`, { authorization: bearer(key) });
    expect(await content(slash)).toBe('slash');
    const query = await call(`${CHAT}?trace=1`, { 'api-key': key });
    expect(await content(query)).toBe('query');
    const badEncoding = await call('/inference/custom/conn_%E0%A4%A/chat/completions', {
      authorization: bearer(key),
    });
    expect(badEncoding.status).toBe(400);
    // In the caller's API shape, naming the path as what is wrong, with a key or without, /v1 or not.
    expect(await badEncoding.json()).toMatchObject({
      error: { type: 'invalid_request_error' },
      kind: 'Params',
    });
    const anthropicBad = await call('/inference/custom/conn_%E0%A4%A/v1/messages', {});
    expect(anthropicBad.status).toBe(400);
    expect(await anthropicBad.json()).toMatchObject({
      type: 'error',
      error: { type: 'invalid_request_error' },
    });
    const anonymous = await call(CHAT, {});
    expect(anonymous.status).toBe(401);
    expect(await anonymous.json()).toMatchObject({
      error: { type: 'authentication_error', code: 'Unauthorized' },
    });
  });

  it('a connection id PostgreSQL cannot store (a NUL) is a 400 with a key, as without one; so is a very long one', async () => {
    for (const path of ['/chat/completions', '/v1/chat/completions', '/messages', '/v1/messages']) {
      const keys: Array<Record<string, string>> = [{ authorization: bearer(key) }, { 'x-api-key': key }, {}];
      for (const headers of keys) {
        const res = await call(`/inference/custom/conn_%00x${path}`, headers);
        expect({ path, headers: Object.keys(headers), status: res.status }).toEqual({
          path,
          headers: Object.keys(headers),
          status: 400,
        });
        expect(await res.json()).toMatchObject({
          error: { type: 'invalid_request_error', message: expect.stringContaining('NUL') },
        });
      }
    }
    // Longer than Fastify's maxParamLength: refused by Fastify, with a key as without one, as a bad path.
    for (const headers of [{ authorization: bearer(key) }, {}] as Array<Record<string, string>>) {
      const long = await call(`/inference/custom/conn_${'x'.repeat(1_001)}/chat/completions`, headers);
      expect(long.status).toBe(400);
      expect(await long.json()).toMatchObject({ error: { type: 'invalid_request_error' }, kind: 'Params' });
    }
    expect(server.output()).not.toContain('unexpected error');
  });

  it('a prompt is forwarded as written, NUL characters included; a body that must be serialized again but is too deep is a 400', async () => {
    upstream.script({ text: 'seen', usage: { input: 1, output: 1 } });
    const nul = await call(
      CHAT,
      { authorization: bearer(key) },
      JSON.stringify({
        model: 'up/small',
        messages: [{ role: 'user', content: 'before\u0000after' }],
        metadata: { kept: true },
      }),
    );
    expect(await content(nul)).toBe('seen');
    expect(upstream.requests.at(-1)!.body).toMatchObject({
      model: 'small',
      messages: [{ content: 'before\u0000after' }],
      metadata: { kept: true },
    });
    const depth = 200_000;
    // Written twice, `model` makes the gateway serialize the body again (see provider-request.ts), which this depth defeats.
    const deep = `{"model":"up/x","model":"up/small","messages":[${'['.repeat(depth)}${']'.repeat(depth)}]}`;
    const refused = await call(CHAT, { authorization: bearer(key) }, deep);
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({
      error: { param: 'body', message: expect.stringContaining('nests') },
    });
  });

  it('a long conversation reaches the provider byte for byte, with only the model id and the usage request written in', async () => {
    for (const filler of ['x', 'é']) {
      // A coding agent's conversation, ASCII or not: the caller's text is kept and two members written in (provider-request.ts).
      const text = JSON.stringify(
        {
          model: 'up/small',
          stream: true,
          messages: [{ role: 'user', content: `${filler.repeat(40_000)} "model": "up/other" }` }],
          metadata: { kept: true },
        },
        null,
        1,
      );
      upstream.script({ text: 'long', usage: { input: 1, output: 1 } });
      const res = await call(CHAT, { authorization: bearer(key) }, text);
      expect(res.status).toBe(200);
      expect(await res.text()).toContain('long');
      const close = text.lastIndexOf('}');
      const expected = `${text.slice(0, close).replace('"model": "up/small"', '"model": "small"')},"stream_options":{"include_usage":true}}`;
      const sent = upstream.requests.at(-1)!;
      expect(Number(sent.headers['content-length'])).toBe(Buffer.byteLength(expected));
      expect(sent.body).toEqual(JSON.parse(expected));
    }
  });

  it('a person signed in to the console (cookie, no key) is answered by the same gateway through the controller', async () => {
    upstream.script({ text: 'for a person', usage: { input: 1, output: 1 } });
    const res = await owner.post(CHAT, JSON.parse(ASK) as object).set('x-org-id', owner.org);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      choices: [{ message: { content: 'for a person' } }],
      cost: expect.any(String),
    });
    expect(res.headers['x-outpost-gateway-ms']).toBeDefined();
    expect(res.headers['x-request-id']).toBeDefined();
  });

  it('a client that leaves before the provider answers cancels the provider call at once', async () => {
    let release!: (value: unknown) => void;
    upstream.script({
      text: 'too late',
      usage: { input: 1, output: 1 },
      until: new Promise((r) => (release = r)),
    });
    const arrived = upstream.requests.length + 1;
    const leaving = new AbortController();
    const pending = call(CHAT, { authorization: bearer(key) }, ASK, leaving.signal).then(
      (res) => res.status,
      (error: Error) => error.name,
    );
    await upstream.waitForRequests(arrived);
    leaving.abort();
    expect(await pending).toBe('AbortError');
    // The provider still holds its answer: only a cancelled call is counted as the client's leaving.
    const left =
      /outpost_gateway_requests_total\{schema="openai-chat",model="up\/small",outcome="client_left"\} 1/;
    let counted = await metrics();
    for (let i = 0; i < 40 && !left.test(counted); i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      counted = await metrics();
    }
    expect(counted).toMatch(left);
    release(undefined);
  });

  it('the key is checked before a byte of the body is read; a body past 10 MiB is refused by its announced length', async () => {
    const unknownKey = await announcedBody(server.url, { authorization: 'Bearer oc_sk_unknown' }, 5_000_000);
    expect(unknownKey.status).toBe(401);
    expect(JSON.parse(unknownKey.body)).toMatchObject({ error: { type: 'authentication_error' } });
    const tooLarge = await announcedBody(server.url, { authorization: bearer(key) }, 11 * 1024 * 1024);
    expect(tooLarge.status).toBe(413);
    expect(JSON.parse(tooLarge.body)).toMatchObject({ error: { code: 'PayloadTooLargeError' } });
    const calls = upstream.requests.length;
    upstream.script({ text: 'still here', usage: { input: 1, output: 1 } });
    const after = await call(CHAT, { authorization: bearer(key) });
    expect(await content(after)).toBe('still here');
    expect(upstream.requests.length).toBe(calls + 1);
  });
});
