import { basic, createTestApp, TestApp, TEST_PASSWORD } from '../../helpers/test-app';
import { registeredRoutes } from '../../helpers/routes';

const UNAUTHORIZED = { _tag: 'UnauthorizedError', message: 'Authentication required' };

describe('instance access: credentials on /api/*', () => {
  let t: TestApp;

  beforeAll(async () => (t = await createTestApp({ env: { OUTPOST_TRUST_PROXY: '127.0.0.1' } })));
  afterAll(() => t.close());

  it('answers 401 with the tagged body and WWW-Authenticate on every /api route, found in the app', async () => {
    const routes = registeredRoutes(t.app).filter((route) => route.path.startsWith('/api/'));
    expect(routes.map((route) => `${route.method} ${route.path}`)).toEqual(
      expect.arrayContaining(['get /api/info', 'post /api/pair', 'get /api/event', 'get /api/location']),
    );
    for (const { method, path } of routes) {
      const res = await t.http[method as 'get'](path);
      expect({ route: `${method} ${path}`, status: res.status, body: res.body }).toEqual({
        route: `${method} ${path}`,
        status: 401,
        body: UNAUTHORIZED,
      });
      expect(res.headers['www-authenticate']).toBe('Basic realm="Outpost"');
    }
  });

  it('answers unknown /api routes 401 without credentials and 404 NotFoundError with them', async () => {
    const anonymous = await t.http.delete('/api/no/such/thing');
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toEqual(UNAUTHORIZED);
    expect(anonymous.headers['www-authenticate']).toBe('Basic realm="Outpost"');
    const wrong = await t.http.get('/api/nope').set('authorization', basic('wrong'));
    expect(wrong.status).toBe(401);
    const known = await t.http.get('/api/nope').set('authorization', basic());
    expect(known.status).toBe(404);
    expect(known.body).toEqual({ _tag: 'NotFoundError', message: 'Route not found: GET /api/nope' });
  });

  it('accepts Basic with the server password, and refuses a wrong password or user', async () => {
    expect((await t.http.get('/api/info').set('authorization', basic())).status).toBe(200);
    expect((await t.http.get('/api/info').set('authorization', basic('nope'))).status).toBe(401);
    expect((await t.http.get('/api/info').set('authorization', basic(TEST_PASSWORD, 'root'))).status).toBe(
      401,
    );
    expect((await t.http.get('/api/info').set('authorization', 'Basic !!!')).status).toBe(401);
  });

  it('accepts ?auth_token=base64(user:password), which query validation never sees', async () => {
    const token = Buffer.from(`opencode:${TEST_PASSWORD}`).toString('base64');
    const res = await t.http.get(`/api/location?auth_token=${encodeURIComponent(token)}`);
    expect(res.status).toBe(200);
    expect(res.body.directory).toEqual(expect.any(String));
    const bad = Buffer.from('opencode:guess').toString('base64');
    expect((await t.http.get(`/api/location?auth_token=${bad}`)).status).toBe(401);
  });

  it('uses OUTPOST_USERNAME as the Basic user, and reads a raw `+` of auth_token as base64', async () => {
    const other = await createTestApp({ env: { OUTPOST_USERNAME: 'alice', OUTPOST_PASSWORD: 'p>>>' } });
    try {
      const ok = await other.http.get('/api/info').set('authorization', basic('p>>>', 'alice'));
      expect(ok.status).toBe(200);
      expect((await other.http.get('/api/info').set('authorization', basic('p>>>'))).status).toBe(401);
      const raw = Buffer.from('alice:p>>>').toString('base64');
      expect(raw).toContain('+');
      expect((await other.http.get(`/api/info?auth_token=${raw}`)).status).toBe(200);
    } finally {
      await other.close();
    }
  });

  it('slows down guessing: more than 30 failures a minute from one address get 429 with Retry-After', async () => {
    const from = (address: string) => ({ 'x-forwarded-for': address });
    // A client paired before the guessing started, at the same address.
    const code = (await t.http.post('/api/pair').set(from('10.9.9.9')).set('authorization', basic())).body
      .code;
    const token = (
      await t.http.get(`/auth/connect/${code}`).set(from('10.9.9.9')).set('accept', 'application/json')
    ).body.token as string;
    expect(token).toEqual(expect.any(String));
    for (let i = 0; i < 30; i++) {
      const res = await t.http
        .get('/api/info')
        .set(from('10.9.9.9'))
        .set('authorization', basic(`guess-${i}`));
      expect(res.status).toBe(401);
    }
    const blocked = await t.http.get('/api/info').set(from('10.9.9.9')).set('authorization', basic());
    expect(blocked.status).toBe(429);
    expect(blocked.body._tag).toBe('TooManyRequestsError');
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(blocked.headers['retry-after'])).toBeLessThanOrEqual(60);
    // Pairing codes are guarded by the same counter.
    const connect = await t.http
      .get('/auth/connect/guess')
      .set(from('10.9.9.9'))
      .set('accept', 'application/json');
    expect(connect.status).toBe(429);
    // A paired client's session token (not guessable) still works from that address; the password does not.
    expect(
      (await t.http.get('/api/info').set(from('10.9.9.9')).set('authorization', basic(token))).status,
    ).toBe(200);
    // Another address is not affected, and the block lifts once the failures leave the window.
    expect((await t.http.get('/api/info').set(from('10.9.9.10')).set('authorization', basic())).status).toBe(
      200,
    );
    t.clock.advance(61_000);
    expect((await t.http.get('/api/info').set(from('10.9.9.9')).set('authorization', basic())).status).toBe(
      200,
    );
  });
});
