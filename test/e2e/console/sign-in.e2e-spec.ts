import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { Client } from 'pg';
import { createTestApp, TestApp } from '../../helpers/test-app';
import { asPerson, PASSWORD, sessionCookie, signup } from '../../helpers/console';

const CLI = join(__dirname, '..', '..', '..', 'dist', 'cli.js');

describe('console sign-up, sign-in and sign-out', () => {
  let t: TestApp;
  let db: Client;

  beforeAll(async () => {
    t = await createTestApp();
    db = new Client({ connectionString: t.databaseUrl });
    await db.connect();
  });
  afterAll(async () => {
    await db.end();
    await t.close();
  });

  const login = (email: string, password: string, ip?: string) => {
    const req = t.http.post('/console/api/auth/login');
    if (ip) req.set('x-forwarded-for', ip);
    return req.send({ email, password });
  };

  it('signs up: 201 with the user, a "Personal" workspace they own, and an HttpOnly SameSite=Lax cookie', async () => {
    const res = await t.http
      .post('/console/api/auth/signup')
      .send({ email: 'Ada@Example.com', password: PASSWORD, name: 'Ada' });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      user: { id: expect.stringMatching(/^usr_/), email: 'ada@example.com', name: 'Ada' },
    });
    const cookie = ([] as string[]).concat(res.headers['set-cookie'])[0];
    expect(cookie).toMatch(/^outpost_console=[A-Za-z0-9_-]{43};/);
    expect(cookie).toMatch(/; HttpOnly/);
    expect(cookie).toMatch(/; SameSite=Lax/);
    expect(cookie).toMatch(/; Path=\/console/);
    expect(cookie).not.toMatch(/; Secure/);
    const ada = asPerson(t, sessionCookie(res));
    expect((await ada.get('/console/api/orgs')).body).toEqual([
      { id: expect.stringMatching(/^org_/), name: 'Personal', role: 'owner' },
    ]);
    const { rows } = await db.query('SELECT token_hash FROM console_session WHERE user_id = $1', [
      res.body.user.id,
    ]);
    expect(rows).toHaveLength(1);
    expect(rows[0].token_hash).not.toBe(sessionCookie(res).split('=')[1]);
    const user = await db.query('SELECT password_hash FROM users WHERE id = $1', [res.body.user.id]);
    expect(user.rows[0].password_hash).toMatch(/^\$argon2id\$/);
  });

  it('marks the cookie Secure over https (behind a proxy that says so)', async () => {
    const proxied = await createTestApp({
      databaseUrl: t.databaseUrl,
      env: { OUTPOST_TRUST_PROXY: '127.0.0.1' },
    });
    try {
      const res = await proxied.http
        .post('/console/api/auth/signup')
        .set('x-forwarded-proto', 'https')
        .send({ email: 'secure@example.com', password: PASSWORD });
      expect(res.status).toBe(201);
      expect(([] as string[]).concat(res.headers['set-cookie'])[0]).toMatch(/; Secure/);
    } finally {
      await proxied.close();
    }
  });

  it('refuses a password under 10 characters, a bad email and a taken email', async () => {
    const short = await t.http
      .post('/console/api/auth/signup')
      .send({ email: 'a@example.com', password: '123456789' });
    expect(short.status).toBe(400);
    expect(short.body).toMatchObject({ _tag: 'InvalidRequestError', field: 'password' });
    const bad = await t.http.post('/console/api/auth/signup').send({ email: 'nope', password: PASSWORD });
    expect(bad.body).toMatchObject({ field: 'email' });
    await signup(t, 'taken@example.com');
    const taken = await t.http
      .post('/console/api/auth/signup')
      .send({ email: 'TAKEN@example.com', password: PASSWORD });
    expect(taken.status).toBe(409);
  });

  it('signs in with 204 and a cookie; a wrong email and a wrong password get the same 401', async () => {
    await signup(t, 'grace@example.com');
    const ok = await login('grace@example.com', PASSWORD);
    expect(ok.status).toBe(204);
    const me = await asPerson(t, sessionCookie(ok)).get('/console/api/user');
    expect(me.body.email).toBe('grace@example.com');
    const wrongPassword = await login('grace@example.com', 'not the password');
    const wrongEmail = await login('nobody@example.com', PASSWORD);
    expect(wrongPassword.status).toBe(401);
    expect(wrongEmail.status).toBe(401);
    expect(wrongPassword.body).toEqual(wrongEmail.body);
    expect(wrongPassword.body).toEqual({ _tag: 'Unauthorized', message: 'Wrong email or password' });
  });

  it('signs out: the cookie stops working at once', async () => {
    const person = await signup(t);
    expect((await person.post('/console/api/auth/logout')).status).toBe(204);
    expect((await person.get('/console/api/user')).status).toBe(401);
  });

  it('a sign-in ends when its lifetime (30 days) passes', async () => {
    const person = await signup(t);
    t.clock.advance(29 * 24 * 3600_000);
    expect((await person.get('/console/api/user')).status).toBe(200);
    t.clock.advance(24 * 3600_000);
    expect((await person.get('/console/api/user')).status).toBe(401);
  });

  it('throttles failed sign-ins per account (even with the right password, until the window passes)', async () => {
    await signup(t, 'target@example.com');
    for (let i = 0; i < 10; i++)
      expect((await login('target@example.com', 'wrong password', `10.0.0.${i}`)).status).toBe(401);
    const blocked = await login('target@example.com', PASSWORD, '10.0.1.1');
    expect(blocked.status).toBe(429);
    expect(blocked.headers['retry-after']).toBeDefined();
    t.clock.advance(15 * 60_000);
    expect((await login('target@example.com', PASSWORD, '10.0.1.1')).status).toBe(204);
  });

  it('throttles failed sign-ins per address', async () => {
    const proxied = await createTestApp({
      databaseUrl: t.databaseUrl,
      env: { OUTPOST_TRUST_PROXY: '127.0.0.1' },
    });
    try {
      await signup(t, 'victim@example.com');
      const from = (email: string, password: string) =>
        proxied.http
          .post('/console/api/auth/login')
          .set('x-forwarded-for', '192.0.2.7')
          .send({ email, password });
      for (let i = 0; i < 50; i++) await from(`guess${i}@example.com`, 'wrong password');
      expect((await from('victim@example.com', PASSWORD)).status).toBe(429);
      const elsewhere = await proxied.http
        .post('/console/api/auth/login')
        .set('x-forwarded-for', '192.0.2.8')
        .send({ email: 'victim@example.com', password: PASSWORD });
      expect(elsewhere.status).toBe(204);
    } finally {
      await proxied.close();
    }
  });
});

describe('sign-up modes', () => {
  it('the default: the first account signs up and owns the first workspace; after it, only with an invitation', async () => {
    const t = await createTestApp({ env: { OUTPOST_CONSOLE_SIGNUP: undefined } });
    try {
      const page = await t.http.get('/console/signup');
      expect(page.text).toContain('name="email"');
      // Two first sign-ups at once: one account, the other refused.
      const firsts = await Promise.all(
        ['first@example.com', 'rival@example.com'].map((email) =>
          t.http.post('/console/api/auth/signup').send({ email, password: PASSWORD }),
        ),
      );
      expect(firsts.map((res) => res.status).sort()).toEqual([201, 403]);
      const owner = firsts.find((res) => res.status === 201)!;
      const orgs = await asPerson(t, sessionCookie(owner)).get('/console/api/orgs');
      expect(orgs.body).toEqual([{ id: expect.stringMatching(/^org_/), name: 'Personal', role: 'owner' }]);
      const later = await t.http
        .post('/console/api/auth/signup')
        .send({ email: 'stranger@example.com', password: PASSWORD });
      expect(later.status).toBe(403);
      expect(later.body.message).toBe('Sign-up needs an invitation on this console');
      expect((await t.http.get('/console/signup')).text).toContain('needs an invitation');
      const refused = firsts.find((res) => res.status === 403)!;
      expect(refused.body.message).toBe('Sign-up needs an invitation on this console');
    } finally {
      await t.close();
    }
  });

  it('invite: sign-up needs an invitation, which joins its workspace instead of creating "Personal"', async () => {
    const open = await createTestApp();
    const invited = await createTestApp({
      databaseUrl: open.databaseUrl,
      env: { OUTPOST_CONSOLE_SIGNUP: 'invite' },
    });
    try {
      const owner = await signup(open, 'boss@example.com');
      const refused = await invited.http
        .post('/console/api/auth/signup')
        .send({ email: 'new@example.com', password: PASSWORD });
      expect(refused.status).toBe(403);
      expect(refused.body._tag).toBe('Forbidden');
      const invite = await owner.post(`/console/api/orgs/${owner.org}/invites`, {
        email: 'new@example.com',
        role: 'member',
      });
      const token = invite.body.url.split('/').pop();
      const wrongEmail = await invited.http
        .post('/console/api/auth/signup')
        .send({ email: 'other@example.com', password: PASSWORD, invite: token });
      expect(wrongEmail.status).toBe(403);
      const res = await invited.http
        .post('/console/api/auth/signup')
        .send({ email: 'new@example.com', password: PASSWORD, invite: token });
      expect(res.status).toBe(201);
      const orgs = await asPerson(invited, sessionCookie(res)).get('/console/api/orgs');
      expect(orgs.body).toEqual([{ id: owner.org, name: 'Personal', role: 'member' }]);
      const retry = await invited.http
        .post('/console/api/auth/login')
        .send({ email: 'other@example.com', password: PASSWORD });
      expect(retry.status).toBe(401);
    } finally {
      await invited.close();
      await open.close();
    }
  });

  it('closed: nobody signs up through the API; `outpost console create-user` still makes the first owner', async () => {
    const t = await createTestApp({ env: { OUTPOST_CONSOLE_SIGNUP: 'closed' } });
    try {
      const res = await t.http
        .post('/console/api/auth/signup')
        .send({ email: 'x@example.com', password: PASSWORD });
      expect(res.status).toBe(403);
      const output = await new Promise<string>((resolve, reject) => {
        const child = execFile(
          process.execPath,
          [
            CLI,
            'console',
            'create-user',
            '--email',
            'First@Example.com',
            '--password-stdin',
            '--name',
            'First',
          ],
          {
            env: {
              PATH: process.env.PATH,
              DATABASE_URL: t.databaseUrl,
              OUTPOST_DATA_DIR: t.dataDir,
              LOG_LEVEL: 'silent',
            },
          },
          (error, stdout, stderr) =>
            error ? reject(new Error(`${error.message}\n${stderr}`)) : resolve(stdout),
        );
        child.stdin!.end(`${PASSWORD}\n`);
      });
      expect(output).toMatch(/^created usr_\w+ <first@example.com>/);
      const signedIn = await t.http
        .post('/console/api/auth/login')
        .send({ email: 'first@example.com', password: PASSWORD });
      expect(signedIn.status).toBe(204);
      const orgs = await asPerson(t, sessionCookie(signedIn)).get('/console/api/orgs');
      expect(orgs.body).toEqual([{ id: expect.stringMatching(/^org_/), name: 'Personal', role: 'owner' }]);
    } finally {
      await t.close();
    }
  });

  it('create-user refuses a short password', async () => {
    const code = await new Promise<number | null>((resolve) => {
      const child = execFile(
        process.execPath,
        [CLI, 'console', 'create-user', '--email', 'a@example.com', '--password-stdin'],
        { env: { PATH: process.env.PATH } },
        (error) => resolve(error ? (error.code as number) : 0),
      );
      child.stdin!.end('short\n');
    });
    expect(code).toBe(2);
  });
  it('`outpost console reset-password` prints a single-use link that sets a new password', async () => {
    const t = await createTestApp();
    try {
      const person = await signup(t, 'forgot-it@example.com');
      const run = (email: string) =>
        new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
          execFile(
            process.execPath,
            [CLI, 'console', 'reset-password', '--email', email],
            {
              env: {
                PATH: process.env.PATH,
                DATABASE_URL: t.databaseUrl,
                OUTPOST_DATA_DIR: t.dataDir,
                OUTPOST_CONSOLE_ORIGIN: t.url,
                LOG_LEVEL: 'silent',
              },
            },
            (error, stdout, stderr) => resolve({ code: error ? (error.code as number) : 0, stdout, stderr }),
          );
        });
      const printed = await run('Forgot-It@example.com');
      expect(printed.code).toBe(0);
      const url = /^http:\/\/\S+$/m.exec(printed.stdout)?.[0] ?? '';
      expect(printed.stdout).toMatch(/^Reset link for forgot-it@example.com \(works once, until \S+\):\n/);
      expect(url).toMatch(new RegExp(`^${t.url}/console/reset-password/[A-Za-z0-9_-]{43}$`));
      const token = url.split('/').pop();
      const complete = () =>
        t.http
          .post('/console/api/auth/password-reset/complete')
          .send({ token, password: 'from the command line' });
      expect((await complete()).status).toBe(204);
      expect((await complete()).status).toBe(410);
      expect((await person.get('/console/api/user')).status).toBe(401);

      const unknown = await run('nobody@example.com');
      expect(unknown.code).toBe(1);
      expect(unknown.stderr).toBe('outpost: No console account has this email\n');
    } finally {
      await t.close();
    }
  });
});
