import { basic, createTestApp, TestApp, TEST_PASSWORD } from '../../helpers/test-app';

/** The `name=value` of a response's session cookie. */
function sessionCookie(setCookie: string[] | string | undefined): string {
  const cookies = Array.isArray(setCookie) ? setCookie : [setCookie ?? ''];
  const cookie = cookies.find((c) => c.startsWith('outpost_session_'));
  if (!cookie) throw new Error(`no session cookie in ${JSON.stringify(setCookie)}`);
  return cookie.split(';')[0];
}

describe('the web app from the server side: the page, its files, the sign-in form, the used pairing link', () => {
  let t: TestApp;

  beforeAll(async () => (t = await createTestApp()));
  afterAll(() => t.close());

  it('GET / is the app: a page loading its script and stylesheet from this origin', async () => {
    const res = await t.http.get('/');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.text).toContain('<script type="module" src="/web/app/main.js"></script>');
    expect(res.text).toContain('<link rel="stylesheet" href="/web/app/main.css">');
    expect(res.text).not.toMatch(/(src|href)="(https?:)?\/\//);
    expect(res.headers['content-security-policy']).toContain("script-src 'self'");

    const script = await t.http.get('/web/app/main.js');
    expect(script.status).toBe(200);
    expect(script.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(script.text).toContain('/api/event');
    const style = await t.http.get('/web/app/main.css');
    expect(style.headers['content-type']).toBe('text/css; charset=utf-8');
    expect(style.text).toContain('--accent');
  });

  it('serves only built files: other names are a 400 naming the field, missing ones a 404', async () => {
    const missing = await t.http.get('/web/app/nothing.js');
    expect(missing.status).toBe(404);
    expect(missing.body._tag).toBe('NotFoundError');
    const bad = await t.http.get('/web/app/main.exe');
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ _tag: 'InvalidRequestError', field: 'file' });
    const escape = await t.http.get('/web/..%2F..%2Fpackage.json/x.js');
    expect(escape.status).toBe(400);
    expect(escape.body).toMatchObject({ _tag: 'InvalidRequestError', field: 'entry' });
  });

  it('the sign-in form: a wrong password is a 401, the right one sets the cookie the API takes; sign-out revokes it', async () => {
    const wrong = await t.http.post('/auth/sign-in').send({ password: 'nope' });
    expect(wrong.status).toBe(401);
    expect(wrong.body).toEqual({ _tag: 'UnauthorizedError', message: 'Wrong password' });
    expect(wrong.headers['set-cookie']).toBeUndefined();

    const empty = await t.http.post('/auth/sign-in').send({});
    expect(empty.status).toBe(400);
    expect(empty.body).toMatchObject({ _tag: 'InvalidRequestError', field: 'password' });

    const right = await t.http.post('/auth/sign-in').set('origin', t.url).send({ password: TEST_PASSWORD });
    expect(right.status).toBe(204);
    const cookie = sessionCookie(right.headers['set-cookie']);
    expect(String(right.headers['set-cookie'])).toMatch(/HttpOnly/);
    expect(String(right.headers['set-cookie'])).toMatch(/SameSite=Lax/);
    expect(cookie).not.toContain(TEST_PASSWORD);
    const info = await t.http.get('/api/info').set('cookie', cookie);
    expect(info.status).toBe(200);

    const out = await t.http.post('/auth/sign-out').set('cookie', cookie).send({});
    expect(out.status).toBe(204);
    expect(String(out.headers['set-cookie'])).toMatch(/Max-Age=0/);
    // The token is revoked, not only dropped by the browser: replayed, it no longer gets in.
    expect((await t.http.get('/api/info').set('cookie', cookie)).status).toBe(401);
  });

  it('another site cannot sign a browser in: a foreign Origin is a 403, a form post a 400', async () => {
    const foreign = await t.http
      .post('/auth/sign-in')
      .set('origin', 'http://evil.example')
      .send({ password: TEST_PASSWORD });
    expect(foreign.status).toBe(403);
    expect(foreign.headers['set-cookie']).toBeUndefined();
    const form = await t.http.post('/auth/sign-in').type('form').send({ password: TEST_PASSWORD });
    expect(form.status).toBe(400);
    expect(form.body).toMatchObject({ _tag: 'InvalidRequestError', field: 'content-type' });
    expect(form.headers['set-cookie']).toBeUndefined();
  });

  it("the page's own requests get a 401 without a Basic challenge (no browser password dialog); others keep it", async () => {
    const script = await t.http.get('/api/session').set('sec-fetch-mode', 'cors');
    expect(script.status).toBe(401);
    expect(script.headers['www-authenticate']).toBeUndefined();
    const client = await t.http.get('/api/session');
    expect(client.headers['www-authenticate']).toBe('Basic realm="Outpost"');
    const typed = await t.http.get('/api/session').set('sec-fetch-mode', 'navigate');
    expect(typed.headers['www-authenticate']).toBe('Basic realm="Outpost"');
  });

  it('a used pairing link is a page in the look of the app, saying what to do', async () => {
    const pairing = await t.http.post('/api/pair').set('authorization', basic());
    const first = await t.http.get(new URL(pairing.body.url).pathname).set('accept', 'text/html');
    expect(first.status).toBe(302);
    const again = await t.http.get(new URL(pairing.body.url).pathname).set('accept', 'text/html');
    expect(again.status).toBe(401);
    expect(again.headers['content-type']).toMatch(/^text\/html/);
    expect(again.text).toContain('<link rel="stylesheet" href="/web/app/main.css">');
    expect(again.text).toContain('<h1>This pairing link expired or was already used</h1>');
    expect(again.text).toContain('<code>outpost pair</code>');
    expect(again.text).not.toContain('<script');
  });
});

describe('GET / without the instance surface', () => {
  let t: TestApp;

  beforeAll(async () => (t = await createTestApp({ env: { OUTPOST_SURFACES: 'console,inference' } })));
  afterAll(() => t.close());

  it('is the home page linking the console and the docs, not the app', async () => {
    const res = await t.http.get('/');
    expect(res.status).toBe(200);
    expect(res.text).toContain('href="/console"');
    expect(res.text).toContain('href="/docs"');
    expect(res.text).not.toContain('/web/app/main.js');
  });
});
