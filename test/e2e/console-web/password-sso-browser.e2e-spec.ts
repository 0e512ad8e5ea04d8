import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { Browser, Page } from 'playwright-core';
import { accessibilityProblems } from '../../helpers/axe';
import { launchBrowser, watch } from '../../helpers/browser';
import { PASSWORD, signup } from '../../helpers/console';
import { startIdp, TestIdp } from '../../helpers/oidc-idp';
import { linkIn, SmtpInbox, startSmtpInbox } from '../../helpers/smtp-inbox';
import { createTestApp, TestApp } from '../../helpers/test-app';

// Written to test/artifacts (git-ignored); the pictures in docs/ are copies of some.
const ARTIFACTS = join(__dirname, '..', '..', 'artifacts', 'password-sso');
const SIZES = { desktop: { width: 1280, height: 800 }, phone: { width: 390, height: 844 } };

/** "Forgot password?", the reset link's page and "Sign in with …" in Debian's chromium, light and dark. */
describe('forgot password and single sign-on in a browser', () => {
  let smtp: SmtpInbox;
  let idp: TestIdp;
  let t: TestApp;
  let browser: Browser;

  beforeAll(async () => {
    smtp = await startSmtpInbox();
    idp = await startIdp();
    t = await createTestApp({
      env: {
        OUTPOST_SMTP_URL: smtp.url,
        OUTPOST_SMTP_FROM: 'Outpost <outpost@example.com>',
        OUTPOST_OIDC_ISSUER: idp.issuer,
        OUTPOST_OIDC_CLIENT_ID: idp.clientId,
        OUTPOST_OIDC_CLIENT_SECRET: idp.clientSecret,
        OUTPOST_OIDC_NAME: 'Acme ID',
        OUTPOST_OIDC_ALLOWED_DOMAINS: 'example.com',
      },
    });
    idp.allowRedirect(`${t.url}/console/auth/oidc/callback`);
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
    await idp?.close();
    await smtp?.close();
  });

  async function open(scheme: 'light' | 'dark', size: keyof typeof SIZES) {
    const context = await browser.newContext({
      viewport: SIZES[size],
      colorScheme: scheme,
      ...(size === 'phone' ? { isMobile: true, hasTouch: true, deviceScaleFactor: 2 } : {}),
    });
    const page = await context.newPage();
    return { context, page, problems: watch(page, t.url) };
  }

  async function shot(page: Page, name: string) {
    mkdirSync(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: join(ARTIFACTS, `${name}.png`), fullPage: true });
  }

  for (const scheme of ['light', 'dark'] as const) {
    for (const size of ['desktop', 'phone'] as const) {
      it(`${scheme}, ${size}: forgot password → the emailed link → a new password, signed in`, async () => {
        const email = `forgetful-${scheme}-${size}@example.com`;
        await signup(t, email);
        const { context, page, problems } = await open(scheme, size);
        const found: string[] = [];

        await page.goto(`${t.url}/console/login`);
        await page.getByRole('link', { name: 'Sign in with Acme ID' }).waitFor();
        found.push(...(await accessibilityProblems(page)));
        await shot(page, `console-sign-in-sso-${scheme}-${size}`);

        await page.getByRole('link', { name: 'Forgot password?' }).click();
        await page.getByRole('heading', { name: 'Forgot password' }).waitFor();
        found.push(...(await accessibilityProblems(page)));
        await shot(page, `console-forgot-password-${scheme}-${size}`);
        await page.getByLabel('Email').fill(email);
        await page.getByRole('button', { name: 'Send the link' }).click();
        await page
          .getByRole('status')
          .filter({ hasText: 'a link to reset its password is on its way' })
          .waitFor();
        await shot(page, `console-forgot-password-sent-${scheme}-${size}`);

        const [mail] = await smtp.mailsTo(email);
        await page.goto(linkIn(mail));
        await page.getByRole('heading', { name: 'Set a new password' }).waitFor();
        found.push(...(await accessibilityProblems(page)));
        await shot(page, `console-reset-password-${scheme}-${size}`);
        await page.getByLabel('New password').fill('a long new password');
        await page.getByRole('button', { name: 'Set the password' }).click();
        await page.getByRole('status').filter({ hasText: 'Your new password is set' }).waitFor();
        expect(new URL(page.url()).pathname).toBe('/console');

        // The link is spent: opening it again says so.
        await page.goto(linkIn(mail));
        await page
          .getByRole('alert')
          .filter({ hasText: 'This password reset link was already used' })
          .waitFor();
        const wide = await page.evaluate(
          'document.documentElement.scrollWidth > document.documentElement.clientWidth',
        );
        expect(wide).toBe(false);
        expect(found).toEqual([]);
        expect(problems.filter((problem) => !problem.startsWith('request to another origin'))).toEqual([]);
        await context.close();
      });
    }
  }

  it('"Sign in with Acme ID" goes to the provider and back, signed in; another domain is told why not', async () => {
    const { context, page } = await open('light', 'desktop');
    idp.nextAccount = { email: 'sso-person@example.com', email_verified: true, name: 'Sso Person' };
    await page.goto(`${t.url}/console/login?next=/console/members`);
    await page.getByRole('link', { name: 'Sign in with Acme ID' }).click();
    await page.waitForURL(`${t.url}/console/members`);
    await page.getByText('Signed in as sso-person@example.com').waitFor();

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(/\/console\/login/);
    await context.close();

    // Another browser (the provider would otherwise remember the first person's sign-in there).
    const other = await open('light', 'desktop');
    idp.nextAccount = { email: 'visitor@elsewhere.test', email_verified: true };
    await other.page.goto(`${t.url}/console/login`);
    await other.page.getByRole('link', { name: 'Sign in with Acme ID' }).click();
    await other.page.waitForURL(`${t.url}/console/login?sso_error=domain`);
    await other.page
      .getByRole('alert')
      .filter({ hasText: 'not in a domain allowed to sign in here' })
      .waitFor();
    await shot(other.page, 'console-sign-in-sso-refused-light-desktop');
    // The password form still works next to it.
    await other.page.getByLabel('Email').fill('forgetful-light-desktop@example.com');
    await other.page.getByLabel('Password').fill(PASSWORD);
    expect(await other.page.getByRole('button', { name: 'Sign in', exact: true }).isVisible()).toBe(true);
    await other.context.close();
  });
  it.each([
    ['light', 'desktop'],
    ['dark', 'phone'],
    ['dark', 'desktop'],
    ['light', 'phone'],
  ] as const)(
    '%s, %s: an owner makes a reset link for a member on the Members page',
    async (scheme, size) => {
      const owner = await signup(t, `owner-${scheme}-${size}@example.com`);
      const email = `joined-${scheme}-${size}@example.com`;
      const invite = await owner.post(`/console/api/orgs/${owner.org}/invites`, { email, role: 'member' });
      const token = String(invite.body.url).split('/').pop();
      const joined = await t.http
        .post('/console/api/auth/signup')
        .send({ email, password: PASSWORD, invite: token });
      expect(joined.status).toBe(201);

      const { context, page, problems } = await open(scheme, size);
      const [name, value] = owner.cookie.split('=');
      await context.addCookies([{ name, value, url: t.url }]);
      await page.goto(`${t.url}/console/members?org=${owner.org}`);
      const member = joined.body.user.name as string;
      await page.getByRole('button', { name: `Reset password of ${member}` }).click();
      const panel = page.getByRole('region', { name: `Password reset link for ${member}` });
      await panel.getByTestId('shown-once').waitFor();
      expect(await panel.getByTestId('shown-once').innerText()).toMatch(
        /\/console\/reset-password\/[A-Za-z0-9_-]{43}$/,
      );
      expect(await accessibilityProblems(page)).toEqual([]);
      await shot(page, `console-members-reset-link-${scheme}-${size}`);
      expect(problems).toEqual([]);
      await context.close();
    },
  );
});
