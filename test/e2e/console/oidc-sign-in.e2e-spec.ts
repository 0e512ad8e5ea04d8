import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { createTestApp, TestApp } from '../../helpers/test-app';
import { asPerson, Person, signup } from '../../helpers/console';
import { CookieJar, followRedirects, startIdp, TestIdp } from '../../helpers/oidc-idp';

/**
 * Console sign-in through a real OpenID Connect provider on loopback: the browser's round trip followed over real
 * HTTP (authorization code, PKCE, state and nonce checked by the console), the email's domain, sign-up rules,
 * linking to an existing account and the automatic membership of a workspace.
 */
describe('sign-in with an OpenID Connect provider', () => {
  let idp: TestIdp;
  let first: TestApp;
  let t: TestApp;
  let owner: Person;

  beforeAll(async () => {
    idp = await startIdp();
    // The workspace sign-ins join exists before the console that names it starts (as an operator would do it).
    first = await createTestApp();
    owner = await signup(first, 'owner@example.com');
    t = await createTestApp({
      databaseUrl: first.databaseUrl,
      env: {
        OUTPOST_CONSOLE_SIGNUP: 'invite',
        OUTPOST_OIDC_ISSUER: idp.issuer,
        OUTPOST_OIDC_CLIENT_ID: idp.clientId,
        OUTPOST_OIDC_CLIENT_SECRET: idp.clientSecret,
        OUTPOST_OIDC_NAME: 'Acme ID',
        OUTPOST_OIDC_ALLOWED_DOMAINS: 'example.com',
        OUTPOST_OIDC_WORKSPACE: owner.org,
        OUTPOST_OIDC_ROLE: 'admin',
      },
    });
    idp.allowRedirect(`${t.url}/console/auth/oidc/callback`);
  });
  afterAll(async () => {
    await t?.close();
    await first?.close();
    await idp?.close();
  });

  /** Clicks "Sign in with Acme ID" and follows the redirects through the provider and back. */
  async function signInThroughIdp(account: TestIdp['nextAccount'], next = '/console') {
    idp.nextAccount = account;
    const jar = new CookieJar();
    const { visited, last } = await followRedirects(
      `${t.url}/console/auth/oidc/start?next=${encodeURIComponent(next)}`,
      jar,
    );
    const cookie = jar.header(t.url).match(/outpost_console=[^;]+/)?.[0];
    return { visited, last, cookie, landed: new URL(visited[visited.length - 1]) };
  }

  it('shows "Sign in with Acme ID" on the sign-in page', async () => {
    const page = await t.http.get('/console/login');
    expect(page.status).toBe(200);
    expect(page.text).toContain('href="/console/auth/oidc/start?next=%2Fconsole">Sign in with Acme ID</a>');
    expect(page.text).toContain('<a href="/console/forgot-password">Forgot password?</a>');
  });

  it('signs a new person up through the full code flow, into the configured workspace with its role', async () => {
    const { visited, last, cookie, landed } = await signInThroughIdp(
      { email: 'Ann@Example.com', email_verified: true, name: 'Ann Lee' },
      '/console/members',
    );
    // The console, then the provider (authorize, its interaction, back to authorize), then the console again.
    const authorize = new URL(visited[1]);
    expect(authorize.origin).toBe(idp.issuer);
    expect(authorize.searchParams.get('code_challenge_method')).toBe('S256');
    expect(authorize.searchParams.get('state')).toEqual(expect.any(String));
    expect(authorize.searchParams.get('nonce')).toEqual(expect.any(String));
    expect(visited.some((url) => url.startsWith(`${t.url}/console/auth/oidc/callback?code=`))).toBe(true);
    expect(`${landed.origin}${landed.pathname}`).toBe(`${t.url}/console/members`);
    expect(last.status).toBe(200);

    const ann = asPerson(t, cookie as string);
    expect((await ann.get('/console/api/user')).body).toEqual({
      id: expect.stringMatching(/^usr_/),
      email: 'ann@example.com',
      name: 'Ann Lee',
    });
    // Sign-up is by invitation here, yet the provider's people join the workspace it names: only that one.
    expect((await ann.get('/console/api/orgs')).body).toEqual([
      { id: owner.org, name: 'Personal', role: 'admin' },
    ]);
  });

  it('signs a verified email that has an account into that account, adding the membership', async () => {
    const bob = await signup(first, 'bob@example.com');
    const { cookie } = await signInThroughIdp({ email: 'bob@example.com', email_verified: true });
    const signedIn = asPerson(t, cookie as string);
    expect((await signedIn.get('/console/api/user')).body.id).toBe(bob.id);
    expect((await signedIn.get('/console/api/orgs')).body).toEqual(
      expect.arrayContaining([
        { id: bob.org, name: 'Personal', role: 'owner' },
        { id: owner.org, name: 'Personal', role: 'admin' },
      ]),
    );
    // A second sign-in changes nothing: the same account, the role it has.
    const again = await signInThroughIdp({ email: 'bob@example.com', email_verified: true });
    expect((await asPerson(t, again.cookie as string).get('/console/api/user')).body.id).toBe(bob.id);
  });

  it('refuses an email outside the allowed domains with a clear message on the sign-in page', async () => {
    const { landed, last, cookie } = await signInThroughIdp({ email: 'eve@evil.test', email_verified: true });
    expect(`${landed.pathname}${landed.search}`).toBe('/console/login?sso_error=domain');
    expect(last.status).toBe(403);
    expect(await last.text()).toContain(
      'Your email address is not in a domain allowed to sign in here. Ask the administrator of this console.',
    );
    expect(cookie).toBeUndefined();
    const members = await owner.get(`/console/api/orgs/${owner.org}/members`);
    expect(members.body.map((m: { email: string }) => m.email)).not.toContain('eve@evil.test');
  });

  it('refuses an email the provider did not verify', async () => {
    const { landed, cookie } = await signInThroughIdp({ email: 'unsure@example.com', email_verified: false });
    expect(`${landed.pathname}${landed.search}`).toBe('/console/login?sso_error=unverified');
    expect(cookie).toBeUndefined();
  });

  it('refuses a callback without the state this browser started with', async () => {
    const started = await fetch(`${t.url}/console/auth/oidc/start`, { redirect: 'manual' });
    expect(started.status).toBe(303);
    const forged = await t.http.get('/console/auth/oidc/callback?code=stolen&state=guessed');
    expect(forged.status).toBe(303);
    expect(forged.headers.location).toBe('/console/login?sso_error=failed');
    expect(String(forged.headers['set-cookie'] ?? '')).not.toContain('outpost_console=');
  });

  it('has no provider to start on a console without one', async () => {
    expect((await first.http.get('/console/auth/oidc/start')).status).toBe(404);
    expect((await first.http.get('/console/login')).text).not.toContain('Sign in with');
  });
});

describe('sign-in with a provider, no workspace to join', () => {
  let idp: TestIdp;
  let t: TestApp;

  beforeAll(async () => {
    idp = await startIdp();
    t = await createTestApp({
      env: {
        OUTPOST_CONSOLE_SIGNUP: 'invite',
        OUTPOST_OIDC_ISSUER: idp.issuer,
        OUTPOST_OIDC_CLIENT_ID: idp.clientId,
        OUTPOST_OIDC_CLIENT_SECRET: idp.clientSecret,
      },
    });
    idp.allowRedirect(`${t.url}/console/auth/oidc/callback`);
  });
  afterAll(async () => {
    await t?.close();
    await idp?.close();
  });

  it('follows the sign-up rules: no new account when sign-up needs an invitation', async () => {
    idp.nextAccount = { email: 'walk-in@example.com', email_verified: true };
    const { visited, last } = await followRedirects(`${t.url}/console/auth/oidc/start`);
    expect(visited[visited.length - 1]).toBe(`${t.url}/console/login?sso_error=signup`);
    expect(await last.text()).toContain(
      'There is no console account for your email address and sign-up is not open.',
    );
    // The button names the provider by its host when OUTPOST_OIDC_NAME is not set.
    expect((await t.http.get('/console/login')).text).toContain('Sign in with 127.0.0.1</a>');
  });
});

describe("the provider's other hosts go through the outbound guard", () => {
  let t: TestApp;
  let issuer: Server;
  let inside: Server;
  let insideCalls = 0;

  beforeAll(async () => {
    // Another loopback address stands for an internal host the operator did not name.
    inside = createServer((_req, res) => {
      insideCalls++;
      res.end('{}');
    });
    await new Promise<void>((resolve) => inside.listen(0, '127.0.0.2', resolve));
    const insideUrl = `http://127.0.0.2:${(inside.address() as AddressInfo).port}`;
    issuer = createServer((req, res) => {
      const base = `http://127.0.0.1:${(issuer.address() as AddressInfo).port}`;
      if (req.url !== '/.well-known/openid-configuration') return res.writeHead(404).end();
      res.setHeader('content-type', 'application/json');
      res.end(
        JSON.stringify({
          issuer: base,
          authorization_endpoint: `${base}/auth`,
          token_endpoint: `${insideUrl}/token`,
          jwks_uri: `${insideUrl}/jwks`,
          response_types_supported: ['code'],
          subject_types_supported: ['public'],
          id_token_signing_alg_values_supported: ['RS256'],
        }),
      );
    });
    await new Promise<void>((resolve) => issuer.listen(0, '127.0.0.1', resolve));
    t = await createTestApp({
      env: {
        OUTPOST_OIDC_ISSUER: `http://127.0.0.1:${(issuer.address() as AddressInfo).port}`,
        OUTPOST_OIDC_CLIENT_ID: 'outpost',
        OUTPOST_OIDC_CLIENT_SECRET: 'secret',
      },
    });
  });
  afterAll(async () => {
    await t?.close();
    await new Promise((resolve) => issuer?.close(resolve));
    await new Promise((resolve) => inside?.close(resolve));
  });

  it('reaches the configured issuer, and never opens a connection to an internal host it names', async () => {
    const started = await t.http.get('/console/auth/oidc/start');
    expect(started.status).toBe(303);
    const authorize = new URL(started.headers.location);
    expect(authorize.pathname).toBe('/auth');
    const pending = String(started.headers['set-cookie']).match(/outpost_oidc=[^;]+/)![0];
    const state = authorize.searchParams.get('state');
    const back = await t.http
      .get(`/console/auth/oidc/callback?code=a-code&state=${state}`)
      .set('cookie', pending);
    expect(back.status).toBe(303);
    expect(back.headers.location).toBe('/console/login?sso_error=failed');
    expect(insideCalls).toBe(0);
  });
});
