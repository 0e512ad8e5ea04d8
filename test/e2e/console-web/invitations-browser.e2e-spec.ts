import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { Browser } from 'playwright-core';
import { accessibilityProblems } from '../../helpers/axe';
import { launchBrowser, watch } from '../../helpers/browser';
import { PASSWORD, Person, signup } from '../../helpers/console';
import { createTestApp, TestApp } from '../../helpers/test-app';

const ARTIFACTS = join(__dirname, '..', '..', 'artifacts', 'console-design');

/**
 * Two servers on one database: `open` (anyone signs up) where the owner works, and `invited`, whose sign-up is
 * invite-only, where the invitation links point.
 */
describe('invitations in a browser (Debian chromium)', () => {
  let open: TestApp;
  let invited: TestApp;
  let browser: Browser;
  let owner: Person;

  beforeAll(async () => {
    open = await createTestApp();
    invited = await createTestApp({
      databaseUrl: open.databaseUrl,
      env: { OUTPOST_CONSOLE_SIGNUP: 'invite' },
    });
    owner = await signup(open, 'owner@example.com');
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await invited?.close();
    await open?.close();
  });

  const invite = async (email: string) => {
    const res = await owner.post(`/console/api/orgs/${owner.org}/invites`, { email, role: 'member' });
    expect(res.status).toBe(201);
    return { path: new URL(String(res.body.url)).pathname, replaced: res.body.replaced_earlier as boolean };
  };

  it.each([
    ['desktop', { width: 1280, height: 800 }],
    ['phone', { width: 390, height: 844 }],
  ])(
    'on a %s, keyboard only: a link opened without an account lands on sign-up (invite-only) with the email filled in, and joins',
    async (size, viewport) => {
      const email = `new-${size}@example.com`;
      const { path } = await invite(email);
      const context = await browser.newContext({ viewport });
      const page = await context.newPage();
      const problems = watch(page, invited.url);
      await page.goto(`${invited.url}${path}`);
      await page.getByRole('heading', { name: 'Create an account' }).waitFor();
      expect(new URL(page.url()).pathname).toBe('/console/signup');
      // It says who sent the invitation, and to what.
      await page
        .getByText(
          /^.+ \(owner@example\.com\) invites you to join Personal as a member: create an account to accept\.$/,
        )
        .waitFor();
      expect(await page.getByLabel('Email').inputValue()).toBe(email);
      expect(await accessibilityProblems(page)).toEqual([]);
      mkdirSync(ARTIFACTS, { recursive: true });
      await page.screenshot({ path: join(ARTIFACTS, `invitation-sign-up-${size}.png`), fullPage: true });

      // Keyboard only: from the email field, Tab to the name, the password, then Enter.
      await page.getByLabel('Email').focus();
      await page.keyboard.press('Tab');
      await page.keyboard.type('Newcomer');
      await page.keyboard.press('Tab');
      await page.keyboard.type(PASSWORD);
      await page.keyboard.press('Enter');
      await page.getByText('You joined the workspace.').waitFor();
      const members = await owner.get(`/console/api/orgs/${owner.org}/members`);
      expect(members.body.map((m: { email: string }) => m.email)).toContain(email);
      expect(problems).toEqual([]);
      await context.close();
    },
  );

  it('a link opened by someone who has an account lands on sign-in with the way back to the invitation', async () => {
    await signup(open, 'has-account@example.com');
    const { path } = await invite('has-account@example.com');
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${invited.url}${path}`);
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    expect(new URL(page.url()).searchParams.get('next')).toBe(path);
    // Signed in, the invitation's page says who sent it.
    await page.getByLabel('Email').fill('has-account@example.com');
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page
      .getByText(
        /^.+ \(owner@example\.com\) invites you to join Personal as a member \(an invitation for has-account@example\.com\)\.$/,
      )
      .waitFor();
    expect(await accessibilityProblems(page)).toEqual([]);
    await context.close();
  });

  it('re-inviting an email says the earlier link was replaced, the earlier link stops working, and the audit log says so', async () => {
    const first = await invite('twice@example.com');
    expect(first.replaced).toBe(false);
    const context = await browser.newContext();
    const [name, value] = owner.cookie.split('=');
    await context.addCookies([{ name, value, url: open.url }]);
    const page = await context.newPage();
    await page.goto(`${open.url}/console/members?org=${owner.org}`);
    await page.getByLabel('Email', { exact: true }).fill('twice@example.com');
    await page.getByRole('button', { name: 'Invite' }).click();
    await page
      .getByText(
        'twice@example.com had an invitation already: the earlier link no longer works; send this one.',
      )
      .waitFor();
    // The earlier link is gone: opened, it is no invitation any more.
    const earlier = await owner.get(first.path);
    expect(earlier.status).toBe(404);
    await page.goto(`${open.url}/console/audit?org=${owner.org}`);
    await page
      .getByText('Invited twice@example.com as a member; the earlier invitation link no longer works')
      .waitFor();
    await context.close();
  });
});
