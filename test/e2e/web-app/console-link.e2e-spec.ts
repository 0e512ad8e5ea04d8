import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Browser } from 'playwright-core';
import { bearer, Person, signup } from '../../helpers/console';
import { approve } from '../../helpers/device';
import { basic, createTestApp, TestApp } from '../../helpers/test-app';
import { launchBrowser, screenshot, watch } from '../../helpers/browser';

/** A console (its own server) and an instance; the instance's server page signs it in to the console and out. */
describe('the web app signs the instance in to a console and out (issue 21)', () => {
  let consoleApp: TestApp;
  let instance: TestApp;
  let owner: Person;
  let browser: Browser;

  beforeAll(async () => {
    consoleApp = await createTestApp({
      env: {
        OUTPOST_SURFACES: 'console,inference',
        OUTPOST_SECRET_KEY: 'web-console-link-secret-0123456789',
      },
    });
    owner = await signup(consoleApp);
    // The console is on loopback: its operator allows it.
    instance = await createTestApp({
      env: {
        OUTPOST_SURFACES: 'instance',
        OUTPOST_CONSOLE_POLL_MS: '300',
        OUTPOST_CONNECTIONS_ALLOW: '127.0.0.1',
      },
    });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await instance?.close();
    await consoleApp?.close();
  });

  it('starts the device sign-in, shows the code and link, becomes linked once approved; sign-out revokes it', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const problems = watch(page, instance.url);
    const pairing = await instance.http.post('/api/pair').set('authorization', basic());
    await page.goto(pairing.body.url);
    await page.getByRole('link', { name: 'Server' }).click();
    await expect(page.getByTestId('console-state').textContent()).resolves.toBe(
      'Not signed in to a console.',
    );

    await page.getByLabel('Console address').fill(consoleApp.url);
    await page.getByRole('button', { name: 'Sign in to a console' }).click();
    const userCode = (await page.getByTestId('console-user-code').textContent())!;
    expect(userCode).toMatch(/^[A-Z]{4}-[A-Z]{4}$/);
    const approval = page.getByRole('link', { name: 'the console’s approval page' });
    expect(await approval.getAttribute('href')).toBe(
      `${consoleApp.url}/console/device?user_code=${encodeURIComponent(userCode)}`,
    );
    await screenshot(page, 'console-sign-in-pending');

    await approve(consoleApp, owner, userCode, owner.org);
    await page
      .getByTestId('console-state')
      // The workspace by its name (a sign-up's first one is "Personal"), not its org_ id.
      .filter({ hasText: `Signed in to ${consoleApp.url}, workspace Personal.` })
      .waitFor({ timeout: 20_000 });
    const info = await instance.http.get('/api/info').set('authorization', basic());
    expect(info.body.console).toMatchObject({
      state: 'linked',
      console: consoleApp.url,
      workspace: owner.org,
      workspaceName: 'Personal',
    });
    const file = join(instance.dataDir, 'console.json');
    const { accessToken } = JSON.parse(readFileSync(file, 'utf8')) as { accessToken: string };
    expect(
      (await consoleApp.http.get('/console/api/user').set('authorization', bearer(accessToken))).status,
    ).toBe(200);

    await page.getByRole('button', { name: 'Sign out of the console' }).click();
    await page.getByTestId('console-state').filter({ hasText: 'Not signed in to a console.' }).waitFor();
    expect(existsSync(file)).toBe(false);
    expect(
      (await consoleApp.http.get('/console/api/user').set('authorization', bearer(accessToken))).status,
    ).toBe(401);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('the endpoint: a console address that is no http(s) URL is a 400 naming the field; none answering there, a 400 too', async () => {
    const bad = await instance.http
      .post('/api/console-link/sign-in')
      .set('authorization', basic())
      .send({ console: 'ftp://example.com' });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ _tag: 'InvalidRequestError', field: 'console' });
    const nobody = await instance.http
      .post('/api/console-link/sign-in')
      .set('authorization', basic())
      .send({ console: 'http://127.0.0.1:9' });
    expect(nobody.status).toBe(400);
    expect(nobody.body).toMatchObject({ _tag: 'InvalidRequestError', field: 'console' });
    expect(nobody.body.message).toContain('http://127.0.0.1:9');
    const anonymous = await instance.http.post('/api/console-link/sign-in').send({ console: consoleApp.url });
    expect(anonymous.status).toBe(401);
  });
});
