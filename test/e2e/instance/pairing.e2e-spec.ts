import { createHash } from 'node:crypto';
import { Client } from 'pg';
import { basic, createTestApp, TestApp } from '../../helpers/test-app';
import { query } from '../../helpers/test-database';

const EXPIRED = { _tag: 'UnauthorizedError', message: 'Pairing link expired or already used' };
const DAY_MS = 24 * 3600 * 1000;
const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

async function rows(databaseUrl: string | undefined, sql: string): Promise<Array<Record<string, unknown>>> {
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return (await client.query(sql)).rows;
  } finally {
    await client.end();
  }
}

describe('pairing: server.pair and server.connect', () => {
  let t: TestApp;
  // Fifty failed redeems in one test must not lock the test's own address out.
  beforeAll(async () => (t = await createTestApp({ env: { OUTPOST_AUTH_MAX_FAILURES: '1000' } })));
  afterAll(() => t.close());

  const pair = async (app = t, password?: string) => {
    const res = await app.http.post('/api/pair').set('authorization', basic(password));
    expect(res.status).toBe(200);
    return res.body as { code: string; expires_in: number; url: string };
  };
  const connectJson = (code: string, app = t) =>
    app.http.get(`/auth/connect/${code}`).set('accept', 'application/json');
  const redeem = async (app = t, password?: string) => {
    const res = await connectJson((await pair(app, password)).code, app);
    expect(res.status).toBe(200);
    return res.body.token as string;
  };

  it('needs credentials to create a code', async () => {
    const res = await t.http.post('/api/pair');
    expect(res.status).toBe(401);
  });

  it('issues a single-use code of at least 128 bits, valid 300 s, with its full link', async () => {
    const code = await pair();
    expect(code.expires_in).toBe(300);
    expect(code.code).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(Buffer.from(code.code, 'base64url').length).toBeGreaterThanOrEqual(16);
    expect(code.url).toBe(`${t.url}/auth/connect/${code.code}`);
    expect((await pair()).code).not.toBe(code.code);
  });

  it('gives a JSON client a token that works as the Basic password, once', async () => {
    const { code } = await pair();
    const first = await connectJson(code);
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ token: expect.any(String) });
    const token = first.body.token as string;
    const info = await t.http.get('/api/info').set('authorization', basic(token));
    expect(info.status).toBe(200);
    // A paired client may pair another one.
    expect((await t.http.post('/api/pair').set('authorization', basic(token))).status).toBe(200);
    const again = await connectJson(code);
    expect(again.status).toBe(401);
    expect(again.body).toEqual(EXPIRED);
  });

  it('answers an unknown code exactly like a used one', async () => {
    const res = await connectJson('not-a-real-code');
    expect(res.status).toBe(401);
    expect(res.body).toEqual(EXPIRED);
  });

  it('keeps codes and tokens only as hashes, and records when a token was last used', async () => {
    const { code } = await pair();
    const token = (await connectJson(code)).body.token as string;
    await t.http.get('/api/info').set('authorization', basic(token));
    const codes = await rows(t.databaseUrl, 'SELECT * FROM pairing_code');
    expect(JSON.stringify(codes)).not.toContain(code);
    expect(codes.map((row) => row.code_hash)).toContain(sha256(code));
    const tokens = await rows(t.databaseUrl, 'SELECT * FROM instance_session_token');
    expect(JSON.stringify(tokens)).not.toContain(token);
    const mine = tokens.find((row) => row.token_hash === sha256(token));
    expect(mine?.last_used_at).toBeInstanceOf(Date);
    expect((mine!.expires_at as Date).getTime() - (mine!.created_at as Date).getTime()).toBe(30 * DAY_MS);
  });

  it('gives a browser a redirect and an HttpOnly session cookie named for the host and port', async () => {
    const { code } = await pair();
    const res = await t.http.get(`/auth/connect/${code}`).set('accept', 'text/html,application/xhtml+xml');
    expect(res.status).toBe(302);
    expect(res.headers.location).toBe('/');
    const port = new URL(t.url).port;
    const cookie = res.headers['set-cookie'][0] as string;
    expect(cookie).toMatch(new RegExp(`^outpost_session_127_0_0_1_${port}=ost_[A-Za-z0-9_-]+;`));
    expect(cookie).toContain('Max-Age=2592000');
    expect(cookie).toContain('Path=/');
    expect(cookie).toContain('HttpOnly');
    expect(cookie).toContain('SameSite=Lax');
    expect(cookie).not.toContain('Secure');

    const pairCookie = cookie.split(';')[0];
    const sameOrigin = await t.http.get('/api/info').set('cookie', pairCookie);
    expect(sameOrigin.status).toBe(200);
    const withOrigin = await t.http.get('/api/info').set('cookie', pairCookie).set('origin', t.url);
    expect(withOrigin.status).toBe(200);
    const crossOrigin = await t.http
      .get('/api/info')
      .set('cookie', pairCookie)
      .set('origin', 'http://evil.example');
    expect(crossOrigin.status).toBe(401);
    expect(crossOrigin.body).toEqual({ _tag: 'UnauthorizedError', message: 'Authentication required' });
    const otherName = await t.http.get('/api/info').set('cookie', pairCookie.replace(port, '1'));
    expect(otherName.status).toBe(401);

    const used = await t.http.get(`/auth/connect/${code}`).set('accept', 'text/html');
    expect(used.status).toBe(401);
    expect(used.headers['content-type']).toMatch(/^text\/html/);
    expect(used.text).toContain('expired or was already used');
    expect(used.headers['www-authenticate']).toBeUndefined();
  });

  it('expires a code after its TTL (injected clock)', async () => {
    const late = await pair();
    const inTime = await pair();
    t.clock.advance(299_000);
    expect((await connectJson(inTime.code)).status).toBe(200);
    t.clock.advance(2_000);
    const res = await connectJson(late.code);
    expect(res.status).toBe(401);
    expect(res.body).toEqual(EXPIRED);
  });

  it('lets exactly one of 50 simultaneous redeems of one code win', async () => {
    const { code } = await pair();
    const results = await Promise.all(
      Array.from({ length: 50 }, () =>
        fetch(`${t.url}/auth/connect/${code}`, { headers: { accept: 'application/json' } }),
      ),
    );
    const statuses = results.map((res) => res.status).sort();
    expect(statuses.filter((status) => status === 200)).toHaveLength(1);
    expect(statuses.filter((status) => status === 401)).toHaveLength(49);
    // Those 49 failures count against 127.0.0.1 in the shared limiter (every process on this database sees
    // them); the next tests start from a clean window.
    await query(t.databaseUrl!, `DELETE FROM rate_limit_window WHERE key LIKE 'instance-login:%'`);
  });

  it('redeems a code at a second server process on the same database', async () => {
    const second = await createTestApp({ databaseUrl: t.databaseUrl });
    try {
      const { code } = await pair();
      const res = await connectJson(code, second);
      expect(res.status).toBe(200);
      const token = res.body.token as string;
      expect((await second.http.get('/api/info').set('authorization', basic(token))).status).toBe(200);
      expect((await t.http.get('/api/info').set('authorization', basic(token))).status).toBe(200);
      expect((await connectJson(code)).status).toBe(401);
    } finally {
      await second.close();
    }
  });

  it('revokes every token when the server password changes', async () => {
    const token = await redeem();
    const restarted = await createTestApp({
      databaseUrl: t.databaseUrl,
      env: { OUTPOST_PASSWORD: 'a-new-password' },
    });
    try {
      const res = await restarted.http.get('/api/info').set('authorization', basic(token));
      expect(res.status).toBe(401);
      // Tokens issued under the new password work there.
      const fresh = await redeem(restarted, 'a-new-password');
      expect((await restarted.http.get('/api/info').set('authorization', basic(fresh))).status).toBe(200);
    } finally {
      await restarted.close();
    }
  });

  it('expires a session token after 30 days', async () => {
    const token = await redeem();
    t.clock.advance(30 * DAY_MS - 60_000);
    expect((await t.http.get('/api/info').set('authorization', basic(token))).status).toBe(200);
    t.clock.advance(120_000);
    expect((await t.http.get('/api/info').set('authorization', basic(token))).status).toBe(401);
  });
});

describe('pairing behind a proxy, with a web app URL and a shorter TTL', () => {
  let t: TestApp;
  beforeAll(
    async () =>
      (t = await createTestApp({
        env: { OUTPOST_TRUST_PROXY: '127.0.0.1', OUTPOST_WEB_URL: '/app/', OUTPOST_PAIRING_TTL: '60' },
      })),
  );
  afterAll(() => t.close());

  it('marks the cookie Secure over https, links with https, and redirects to OUTPOST_WEB_URL', async () => {
    const created = await t.http
      .post('/api/pair')
      .set('authorization', basic())
      .set('x-forwarded-proto', 'https')
      .set('x-forwarded-host', 'outpost.example.com');
    expect(created.body.expires_in).toBe(60);
    expect(created.body.url).toBe(`https://outpost.example.com/auth/connect/${created.body.code}`);
    const res = await t.http
      .get(`/auth/connect/${created.body.code}`)
      .set('accept', 'text/html')
      .set('x-forwarded-proto', 'https');
    expect(res.status).toBe(302);
    expect(res.headers.location).toBe('/app/');
    expect(res.headers['set-cookie'][0]).toContain('Secure');
  });
});

describe('pairing without a trusted proxy', () => {
  let t: TestApp;
  beforeAll(async () => (t = await createTestApp()));
  afterAll(() => t.close());

  it('ignores X-Forwarded-Proto', async () => {
    const { body } = await t.http
      .post('/api/pair')
      .set('authorization', basic())
      .set('x-forwarded-proto', 'https');
    expect(body.url.startsWith('http://127.0.0.1:')).toBe(true);
    const res = await t.http
      .get(`/auth/connect/${body.code}`)
      .set('accept', 'text/html')
      .set('x-forwarded-proto', 'https');
    expect(res.headers['set-cookie'][0]).not.toContain('Secure');
  });
});
