import { createTestApp, TestApp } from '../../helpers/test-app';
import { addMember, asPerson, PASSWORD, sessionCookie, signup } from '../../helpers/console';
import { linkIn, SmtpInbox, startSmtpInbox } from '../../helpers/smtp-inbox';

const NEW_PASSWORD = 'a brand new password';
const RESETS_PER_HOUR = 30;

const tokenOf = (url: string) => url.split('/').pop() as string;

describe('email: invitations and password resets through a real SMTP server', () => {
  let smtp: SmtpInbox;
  let t: TestApp;

  beforeAll(async () => {
    smtp = await startSmtpInbox();
    t = await createTestApp({
      env: {
        OUTPOST_SMTP_URL: smtp.url,
        OUTPOST_SMTP_FROM: 'Outpost <outpost@example.com>',
        OUTPOST_PASSWORD_RESETS_PER_HOUR: String(RESETS_PER_HOUR),
      },
    });
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });

  const forgot = (email: string) => t.http.post('/console/api/auth/password-reset').send({ email });
  const complete = (token: string, password = NEW_PASSWORD) =>
    t.http.post('/console/api/auth/password-reset/complete').send({ token, password });

  it('sends an invitation by email whose link leads to sign-up and joins the workspace', async () => {
    const owner = await signup(t, 'owner@example.com');
    const invite = await owner.post(`/console/api/orgs/${owner.org}/invites`, {
      email: 'newcomer@example.com',
      role: 'admin',
    });
    expect(invite.status).toBe(201);
    expect(invite.body.emailed).toBe(true);
    const [mail] = await smtp.mailsTo('newcomer@example.com');
    expect(mail.from).toBe('outpost@example.com');
    expect(mail.subject).toBe('You are invited to Personal on Outpost');
    expect(mail.text).toContain('owner (owner@example.com) invites you to join Personal as an admin');
    expect(linkIn(mail)).toBe(invite.body.url);

    // The link of the mail, opened signed out, leads to creating the account with the invitation.
    const opened = await t.http.get(new URL(linkIn(mail)).pathname);
    expect(opened.status).toBe(303);
    expect(opened.headers.location).toMatch(/^\/console\/signup\?next=/);
    const joined = await t.http
      .post('/console/api/auth/signup')
      .send({ email: 'newcomer@example.com', password: PASSWORD, invite: tokenOf(linkIn(mail)) });
    expect(joined.status).toBe(201);
    const orgs = await asPerson(t, sessionCookie(joined)).get('/console/api/orgs');
    expect(orgs.body).toEqual([{ id: owner.org, name: 'Personal', role: 'admin' }]);
  });

  it('answers "forgot password" the same for an unknown email and sends a link only to an account', async () => {
    const person = await signup(t, 'forgetful@example.com');
    const unknown = await forgot('nobody-here@example.com');
    const known = await forgot('Forgetful@Example.com');
    expect(unknown.status).toBe(202);
    expect(known.status).toBe(202);
    expect(known.body).toEqual(unknown.body);
    expect(known.body).toEqual({
      message: 'If an account has this email, a link to reset its password is on its way.',
    });
    const [mail] = await smtp.mailsTo(person.email);
    expect(mail.subject).toBe('Reset your Outpost console password');
    expect(linkIn(mail)).toMatch(new RegExp(`^${t.url}/console/reset-password/[A-Za-z0-9_-]{43}$`));
    // Another request after it is answered and its mail arrived: the unknown email's would have come first.
    await forgot(person.email);
    await smtp.mailsTo(person.email, 2);
    expect(smtp.mails.filter((m) => m.to.includes('nobody-here@example.com'))).toEqual([]);
  });

  it('sets a new password with the link once, ending the other sign-ins; a second use is refused', async () => {
    const person = await signup(t, 'reset-once@example.com');
    await forgot(person.email);
    const [mail] = await smtp.mailsTo(person.email);
    const token = tokenOf(linkIn(mail));

    const described = await t.http.get(`/console/api/auth/password-reset/${token}`);
    expect(described.body).toEqual({ email: person.email });
    const page = await t.http.get(new URL(linkIn(mail)).pathname);
    expect(page.status).toBe(200);
    expect(page.text).toContain('Set a new password for <strong>reset-once@example.com</strong>');

    const tooShort = await complete(token, 'short');
    expect(tooShort.status).toBe(400);
    const done = await complete(token);
    expect(done.status).toBe(204);
    const fresh = asPerson(t, sessionCookie(done));
    expect((await fresh.get('/console/api/user')).body.email).toBe(person.email);
    // The sign-in from before the reset has ended; the old password no longer works, the new one does.
    expect((await person.get('/console/api/user')).status).toBe(401);
    const login = (password: string) =>
      t.http.post('/console/api/auth/login').send({ email: person.email, password });
    expect((await login(PASSWORD)).status).toBe(401);
    expect((await login(NEW_PASSWORD)).status).toBe(204);

    const again = await complete(token, 'yet another password');
    expect(again.status).toBe(410);
    expect(again.body).toEqual({
      _tag: 'Gone',
      message: 'This password reset link was already used. Ask for a new one.',
    });
    expect((await t.http.get(`/console/api/auth/password-reset/${token}`)).status).toBe(410);
  });

  it('refuses a link after its hour, and an older link once a newer one was sent', async () => {
    const person = await signup(t, 'slow-reader@example.com');
    await forgot(person.email);
    const [first] = await smtp.mailsTo(person.email);
    await forgot(person.email);
    const [, second] = await smtp.mailsTo(person.email, 2);
    const replaced = await complete(tokenOf(linkIn(first)));
    expect(replaced.status).toBe(410);
    expect(replaced.body.message).toMatch(/not valid \(a newer link replaces older ones\)/);

    t.clock.advance(60 * 60_000 + 1_000);
    const expired = await complete(tokenOf(linkIn(second)));
    expect(expired.status).toBe(410);
    expect(expired.body.message).toBe('This password reset link has expired. Ask for a new one.');
    const page = await t.http.get(new URL(linkIn(second)).pathname);
    expect(page.status).toBe(410);
    expect(page.text).toContain('This password reset link has expired.');
    expect(
      (await t.http.post('/console/api/auth/login').send({ email: person.email, password: PASSWORD })).status,
    ).toBe(204);
  });

  it('refuses too many requests from one address with 429, whatever the email', async () => {
    // The window is fresh: the clock moved past the hour of the requests above.
    t.clock.advance(60 * 60_000 + 1_000);
    const answers: number[] = [];
    for (let i = 0; i <= RESETS_PER_HOUR; i++) answers.push((await forgot(`probe${i}@example.com`)).status);
    expect(answers.slice(0, RESETS_PER_HOUR)).toEqual(Array(RESETS_PER_HOUR).fill(202));
    const refused = await forgot('forgetful@example.com');
    expect(refused.status).toBe(429);
    expect(refused.headers['retry-after']).toEqual(expect.stringMatching(/^\d+$/));
    expect(refused.body.message).toBe('Too many password reset requests from this address; try again later');
  });

  it('keeps the SMTP password out of every answer', async () => {
    const owner = await signup(t);
    const answers = await Promise.all([
      t.http.get('/console/login'),
      t.http.get('/console/forgot-password'),
      owner.get('/console/api/user'),
      t.http.get('/docs/console.json'),
    ]);
    for (const answer of answers) expect(answer.text).not.toContain(smtp.password);
  });
});

describe('without email: links to hand over', () => {
  let t: TestApp;

  beforeAll(async () => (t = await createTestApp()));
  afterAll(() => t.close());

  it('shows the invitation link, not emailed', async () => {
    const owner = await signup(t);
    const invite = await owner.post(`/console/api/orgs/${owner.org}/invites`, {
      email: 'by-hand@example.com',
      role: 'member',
    });
    expect(invite.body).toMatchObject({ emailed: false, url: expect.stringContaining('/console/invites/') });
  });

  it('says to ask an owner when a password is forgotten', async () => {
    const person = await signup(t);
    const answer = await t.http.post('/console/api/auth/password-reset').send({ email: person.email });
    expect(answer.status).toBe(202);
    expect(answer.body.message).toMatch(/ask an owner of your workspace for a reset link/);
    const page = await t.http.get('/console/forgot-password');
    expect(page.text).toContain('outpost console reset-password --email you@example.com');
  });

  it("gives an owner a single-use link for a member who belongs only to the owner's workspaces", async () => {
    const owner = await signup(t);
    const member = await signup(t);
    await addMember(owner, owner.org, member, 'member');
    // The member's own "Personal" workspace is not the owner's: the owner may not reset them yet.
    const refused = await owner.post(`/console/api/orgs/${owner.org}/members/${member.id}/password-reset`);
    expect(refused.status).toBe(403);
    expect(refused.body.message).toMatch(/also belongs to Personal, which you do not own/);

    const joiner = await t.http
      .post('/console/api/auth/signup')
      .send({ email: 'joined-only@example.com', password: PASSWORD, invite: await inviteToken(owner.org) });
    const joinerId = joiner.body.user.id as string;
    const link = await owner.post(`/console/api/orgs/${owner.org}/members/${joinerId}/password-reset`);
    expect(link.status).toBe(201);
    expect(link.body).toEqual({
      url: expect.stringMatching(new RegExp(`^${t.url}/console/reset-password/[A-Za-z0-9_-]{43}$`)),
      expires_at: expect.any(String),
    });
    const audit = await owner.get(`/console/api/orgs/${owner.org}/audit?action=member.password_reset_link`);
    expect(audit.body.entries).toEqual([
      expect.objectContaining({
        action: 'member.password_reset_link',
        actor: expect.objectContaining({ id: owner.id }),
        target: { type: 'user', id: joinerId },
      }),
    ]);
    expect(
      (
        await t.http
          .post('/console/api/auth/password-reset/complete')
          .send({ token: tokenOf(link.body.url), password: NEW_PASSWORD })
      ).status,
    ).toBe(204);
    const login = await t.http
      .post('/console/api/auth/login')
      .send({ email: 'joined-only@example.com', password: NEW_PASSWORD });
    expect(login.status).toBe(204);

    // Not an owner: refused; not a member of the workspace: not found.
    const asMember = await asPerson(t, sessionCookie(login)).post(
      `/console/api/orgs/${owner.org}/members/${owner.id}/password-reset`,
    );
    expect(asMember.status).toBe(403);
    const stranger = await signup(t);
    const notMember = await owner.post(
      `/console/api/orgs/${owner.org}/members/${stranger.id}/password-reset`,
    );
    expect(notMember.status).toBe(404);

    async function inviteToken(org: string): Promise<string> {
      const invite = await owner.post(`/console/api/orgs/${org}/invites`, {
        email: 'joined-only@example.com',
        role: 'member',
      });
      return tokenOf(invite.body.url);
    }
  });
});
