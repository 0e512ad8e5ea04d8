import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { Browser } from 'playwright-core';
import { launchBrowser } from '../../helpers/browser';
import { bearer } from '../../helpers/console';
import { oauthClient, polledOnce } from '../../helpers/openid-device';
import { createTestApp, TestApp } from '../../helpers/test-app';

const ARTIFACTS = join(__dirname, '..', '..', 'artifacts');

describe('device sign-in in a real browser (Debian chromium through playwright-core)', () => {
  let t: TestApp;
  let browser: Browser;

  beforeAll(async () => {
    t = await createTestApp();
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await t.close();
  });

  it('opens verification_uri_complete, signs up, picks a workspace, approves; the polling client gets tokens', async () => {
    const client = oauthClient(t);
    const handle = await client.deviceAuthorization({ supports_org_scope: 'true' });
    const polling = handle.poll();

    const context = await browser.newContext();
    const page = await context.newPage();
    const violations: string[] = [];
    page.on('console', (message) => {
      if (/Content Security Policy|Refused to/.test(message.text())) violations.push(message.text());
    });
    // The link the CLI prints: resolved against the server as opencode does.
    await page.goto(new URL(handle.verification_uri_complete!, `${t.url}/console/`).href);
    expect(new URL(page.url()).pathname).toBe('/console/login');

    await page.getByRole('link', { name: 'Create one' }).click();
    await page.getByLabel('Email').fill('grace@example.com');
    await page.getByLabel('Name (optional)').fill('Grace');
    await page.getByLabel(/^Password/).fill('correct horse battery');
    await page.getByRole('button', { name: 'Create account' }).click();

    // Back on the approval page, signed in: the client, the code to compare and the workspace chooser.
    await page.waitForURL(/\/console\/device\?user_code=/);
    await expect(page.getByRole('heading', { name: 'Approve this device?' }).isVisible()).resolves.toBe(true);
    expect(await page.getByTestId('user-code').textContent()).toBe(handle.user_code);
    expect(await page.locator('main').textContent()).toContain('opencode-cli');
    const personal = page.getByLabel(/Personal \(owner\)/);
    expect(await personal.isChecked()).toBe(true);
    mkdirSync(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: join(ARTIFACTS, 'device-approval.png'), fullPage: true });

    await polledOnce(t, handle.user_code);
    await page.getByRole('button', { name: 'Approve' }).click();
    await page.getByRole('heading', { name: 'Device approved' }).waitFor();

    const tokens = await polling;
    expect(tokens.access_token).toMatch(/^oc_at_/);
    expect(tokens.org_id).toMatch(/^org_/);
    const user = await t.http.get('/console/api/user').set('authorization', bearer(tokens.access_token!));
    expect(user.body.email).toBe('grace@example.com');

    // The console page lists the device; signing it out there ends its tokens.
    await page.goto(`${t.url}/console`);
    expect(await page.getByRole('table', { name: 'Device sign-ins' }).textContent()).toContain(
      'opencode-cli',
    );
    await page.getByRole('button', { name: /^Sign out opencode-cli/ }).click();
    await page.getByText('The device was signed out.').waitFor();
    const after = await t.http.get('/console/api/user').set('authorization', bearer(tokens.access_token!));
    expect(after.status).toBe(401);

    // Signing out of the console ends the browser's sign-in.
    await page.getByRole('button', { name: 'Sign out', exact: true }).click();
    await page.waitForURL(/\/console\/login$/);
    await page.goto(`${t.url}/console`);
    expect(new URL(page.url()).pathname).toBe('/console/login');
    expect(violations).toEqual([]);
    await context.close();
  });
});
