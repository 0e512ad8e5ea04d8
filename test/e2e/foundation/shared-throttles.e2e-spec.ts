import { request as httpRequest } from 'node:http';
import { PASSWORD } from '../../helpers/console';
import { clearRedis, REDIS_URL } from '../../helpers/redis';
import { basic, createTestApp, TEST_PASSWORD, TestApp } from '../../helpers/test-app';

/** A request from a chosen loopback address (127.0.0.1 or 127.0.0.2), as another client would send it. */
function send(
  url: string,
  path: string,
  from: string,
  init: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      `${url}${path}`,
      { method: init.method ?? 'GET', headers: init.headers, localAddress: from },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    req.end(init.body);
  });
}

describe.each([
  ['PostgreSQL', {}],
  ['Redis', { REDIS_URL }],
])('throttles shared by two server processes (%s)', (_store, env: Record<string, string>) => {
  let a: TestApp;
  let b: TestApp;

  beforeAll(async () => {
    if (env.REDIS_URL) await clearRedis('outpost:rl:*');
    a = await createTestApp({ env });
    b = await createTestApp({ env, databaseUrl: a.databaseUrl });
  });
  afterAll(async () => {
    await b.close();
    await a.close();
  });

  it('31 failed instance logins from one address spread over both: the 31st is refused; the owner from another address gets in', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 31; i++) {
      const server = i % 2 === 0 ? a : b;
      statuses.push(
        await send(server.url, '/api/info', '127.0.0.1', { headers: { authorization: basic(`wrong-${i}`) } }),
      );
    }
    expect(statuses.slice(0, 30)).toEqual(Array(30).fill(401));
    expect(statuses[30]).toBe(429);
    // The address is held on both processes, whatever it presents...
    expect(
      await send(b.url, '/api/info', '127.0.0.1', { headers: { authorization: basic(TEST_PASSWORD) } }),
    ).toBe(429);
    // ...while the owner's right password from another address works on either.
    for (const server of [a, b]) {
      expect(
        await send(server.url, '/api/info', '127.0.0.2', {
          headers: { authorization: basic(TEST_PASSWORD) },
        }),
      ).toBe(200);
    }
  });

  it('a console account is never locked against its owner: guesses from one address are refused, the owner elsewhere signs in', async () => {
    const email = `owner-${_store.toLowerCase()}@example.com`;
    expect((await a.http.post('/console/api/auth/signup').send({ email, password: PASSWORD })).status).toBe(
      201,
    );
    const login = (server: TestApp, from: string, password: string) =>
      send(server.url, '/console/api/auth/login', from, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email, password }),
      });
    const guesses: number[] = [];
    for (let i = 0; i < 12; i++) guesses.push(await login(i % 2 ? a : b, '127.0.0.1', `wrong password ${i}`));
    expect(guesses.slice(0, 10)).toEqual(Array(10).fill(401));
    expect(guesses.slice(10)).toEqual([429, 429]);
    // The guessing address is refused even with the right password...
    expect(await login(a, '127.0.0.1', PASSWORD)).toBe(429);
    // ...the owner from another address gets in, after a short delay at most.
    const started = Date.now();
    expect(await login(b, '127.0.0.2', PASSWORD)).toBe(204);
    expect(Date.now() - started).toBeLessThan(9_000);
  });
});

describe('anonymous limits per address', () => {
  let t: TestApp;
  beforeAll(
    async () =>
      (t = await createTestApp({
        env: {
          OUTPOST_SIGNUPS_PER_HOUR: '3',
          OUTPOST_DEVICE_CODES_PER_MINUTE: '3',
          OUTPOST_TRUST_PROXY: '10.9.9.9',
        },
      })),
  );
  afterAll(() => t.close());

  it('sign-ups: the 4th from one address in an hour is 429, also when it forges X-Forwarded-For', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) {
      const res = await t.http
        .post('/console/api/auth/signup')
        .set('x-forwarded-for', `203.0.113.${i}`)
        .send({ email: `flood${i}@example.com`, password: PASSWORD });
      statuses.push(res.status);
    }
    expect(statuses).toEqual([201, 201, 201, 429]);
  });

  it('device codes: the 4th from one address in a minute is 429', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) {
      statuses.push(
        (await t.http.post('/console/auth/device/code').send({ client_id: 'outpost-cli' })).status,
      );
    }
    expect(statuses).toEqual([200, 200, 200, 429]);
  });

  it('OUTPOST_TRUST_PROXY must list addresses: "true" is refused at start-up', async () => {
    await expect(createTestApp({ env: { OUTPOST_TRUST_PROXY: 'true' } })).rejects.toThrow(
      /OUTPOST_TRUST_PROXY must list the proxies' addresses or CIDRs/,
    );
  });
});
