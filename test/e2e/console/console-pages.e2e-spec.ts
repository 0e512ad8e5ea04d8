import { PASSWORD, Person, signup } from '../../helpers/console';
import { PageSession, pagesOf, requestCode } from '../../helpers/device';
import { createTestApp, TestApp } from '../../helpers/test-app';

describe('console pages (server-rendered, no JavaScript)', () => {
  let t: TestApp;
  let ada: Person;

  beforeAll(async () => {
    t = await createTestApp();
    ada = await signup(t, 'ada@example.com');
  });
  afterAll(() => t.close());

  it('a signed-out visitor is sent to the sign-in page and back to where they were going', async () => {
    const browser = new PageSession(t);
    const device = await browser.get('/console/device?user_code=BCDF-GHJK');
    expect(device.status).toBe(303);
    expect(device.headers.location).toBe(
      `/console/login?next=${encodeURIComponent('/console/device?user_code=BCDF-GHJK')}`,
    );
    const login = await browser.get(device.headers.location);
    expect(login.status).toBe(200);
    expect(login.headers['content-type']).toMatch(/^text\/html/);
    expect(login.text).toContain('<label for="email">Email</label>');
    expect(login.text).toContain('<label for="password">Password</label>');
    const signedIn = await browser.submit(login, '/console/login', {
      email: 'ada@example.com',
      password: PASSWORD,
      next: '/console/device?user_code=BCDF-GHJK',
    });
    expect(signedIn.status).toBe(303);
    expect(signedIn.headers.location).toBe('/console/device?user_code=BCDF-GHJK');
    const home = await browser.get('/console');
    expect(home.status).toBe(200);
    expect(home.text).toContain('Signed in as ada@example.com');
  });

  it('a wrong password re-renders the form with 401; sign-in never redirects off the console', async () => {
    const browser = new PageSession(t);
    const login = await browser.get('/console/login?next=https://evil.example/');
    expect(login.text).toContain('name="next" value="/console"');
    const wrong = await browser.submit(login, '/console/login', {
      email: 'ada@example.com',
      password: 'nope',
    });
    expect(wrong.status).toBe(401);
    expect(wrong.text).toContain('Wrong email or password');
    const offsite = await browser.submit(login, '/console/login', {
      email: 'ada@example.com',
      password: PASSWORD,
      next: '//evil.example/console',
    });
    expect(offsite.headers.location).toBe('/console');
  });

  it('forms without the CSRF token of the browser are refused with 403', async () => {
    const res = await t.http
      .post('/console/login')
      .type('form')
      .send({ email: 'ada@example.com', password: PASSWORD });
    expect(res.status).toBe(403);
    expect(res.text).toContain('This form is out of date');
    // Not signed in.
    expect(String(res.headers['set-cookie'] ?? '')).not.toContain('outpost_console=');
    // Another browser's token does not fit this browser's cookie.
    const other = new PageSession(t);
    const page = await other.get('/console/login');
    const stolen = /name="csrf" value="([^"]+)"/.exec(page.text)![1];
    const forged = await t.http
      .post('/console/device')
      .set('cookie', ada.cookie)
      .type('form')
      .send({ csrf: stolen, user_code: 'BCDF-GHJK', action: 'approve' });
    expect(forged.status).toBe(403);
  });

  it('signs up through the form; bad input re-renders the form with 400', async () => {
    const browser = new PageSession(t);
    const form = await browser.get('/console/signup');
    const short = await browser.submit(form, '/console/signup', {
      email: 'new@example.com',
      password: 'short',
    });
    expect(short.status).toBe(400);
    expect(short.text).toContain('at least 10 characters');
    const bad = await browser.submit(form, '/console/signup', { email: 'not-an-email', password: PASSWORD });
    expect(bad.status).toBe(400);
    const taken = await browser.submit(form, '/console/signup', {
      email: 'ada@example.com',
      password: PASSWORD,
    });
    expect(taken.status).toBe(409);
    const ok = await browser.submit(form, '/console/signup', {
      email: 'new@example.com',
      password: PASSWORD,
    });
    expect(ok.status).toBe(303);
    const home = await browser.get('/console');
    expect(home.text).toContain('Personal');
    // The role in words: "an owner", not "a owner".
    expect(home.text).toContain('— you are an owner');
  });

  it('signing out an unknown device renders a 404 page', async () => {
    const pages = pagesOf(t, ada);
    const home = await pages.get('/console');
    const res = await pages.submit(home, '/console/sessions/dvs_unknown/revoke', {});
    expect(res.status).toBe(404);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.text).toContain('Device sign-in not found');
  });

  it('pages carry the CSP and load nothing from elsewhere', async () => {
    const res = await pagesOf(t, ada).get('/console');
    expect(res.headers['content-security-policy']).toContain("default-src 'self'");
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.text).not.toMatch(/<script|src="http|href="http/);
  });

  it('a mistyped code is corrected on the page', async () => {
    const code = await requestCode(t, { client_id: 'outpost-cli' });
    const pages = pagesOf(t, ada);
    const wrong = await pages.get('/console/device?user_code=ZZZZ-ZZZZ');
    expect(wrong.status).toBe(404);
    const corrected = await pages.submit(wrong, '/console/device', {
      action: 'check',
      user_code: code.user_code,
    });
    expect(corrected.status).toBe(200);
    expect(corrected.text).toContain('outpost-cli');
    expect(corrected.text).toContain(code.user_code);
    expect(corrected.text).toContain('value="approve"');
  });

  it('the invitation page: signed-out → sign-in; signed in → accept joins the workspace', async () => {
    const team = (await ada.post('/console/api/orgs', { name: 'Team' })).body.id;
    const bob = await signup(t, 'bob@example.com');
    const invite = await ada.post(`/console/api/orgs/${team}/invites`, { email: bob.email, role: 'member' });
    const path = new URL(invite.body.url).pathname;

    const away = await new PageSession(t).get(path);
    expect(away.status).toBe(303);
    expect(away.headers.location).toBe(`/console/login?next=${encodeURIComponent(path)}`);

    const pages = pagesOf(t, bob);
    const page = await pages.get(path);
    expect(page.status).toBe(200);
    expect(page.text).toContain('Team');
    const accepted = await pages.submit(page, path, {});
    expect(accepted.status).toBe(303);
    expect(accepted.headers.location).toBe('/console?notice=joined');
    const orgs = await bob.get('/console/api/orgs');
    expect(orgs.body.map((org: { id: string }) => org.id)).toContain(team);
    const used = await pages.get(path);
    expect(used.status).toBe(404);
  });

  it('signing up from an invitation link joins that workspace', async () => {
    const team = (await ada.post('/console/api/orgs', { name: 'Guests' })).body.id;
    const invite = await ada.post(`/console/api/orgs/${team}/invites`, {
      email: 'carol@example.com',
      role: 'member',
    });
    const path = new URL(invite.body.url).pathname;
    const browser = new PageSession(t);
    const form = await browser.get(`/console/signup?next=${encodeURIComponent(path)}`);
    expect(form.text).toContain(`name="invite" value="${path.split('/').pop()}"`);
    const res = await browser.submit(form, '/console/signup', {
      email: 'carol@example.com',
      password: PASSWORD,
      next: path,
      invite: path.split('/').pop()!,
    });
    expect(res.status).toBe(303);
    expect(res.headers.location).toBe('/console?notice=joined');
    const home = await browser.get('/console');
    expect(home.text).toContain('Guests');
  });
});
