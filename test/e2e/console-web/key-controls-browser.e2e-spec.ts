import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { Browser, Page } from 'playwright-core';
import { accessibilityProblems } from '../../helpers/axe';
import { launchBrowser, watch } from '../../helpers/browser';
import { Person, serviceAccountKey, signup } from '../../helpers/console';
import { createTestApp, TestApp } from '../../helpers/test-app';

const ARTIFACTS = join(__dirname, '..', '..', 'artifacts', 'console-web');

describe('a key’s controls in the Keys page: shown, edited in a form, refused next to the field (Debian chromium)', () => {
  let t: TestApp;
  let browser: Browser;
  let owner: Person;
  let sa: string;
  let keyId: string;
  let personalId: string;

  beforeAll(async () => {
    t = await createTestApp();
    browser = await launchBrowser();
    owner = await signup(t, 'owner@example.com');
    ({ sa, keyId } = await serviceAccountKey(owner, owner.org, 'inference'));
    const personal = await owner.post(`/console/api/orgs/${owner.org}/keys`, {
      name: 'laptop',
      permission: 'inference',
    });
    expect(personal.status).toBe(201);
    personalId = personal.body.id;
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  const serviceAccountKeyNow = async () =>
    (await owner.get(`/console/api/orgs/${owner.org}/service-accounts/${sa}/keys`)).body.find(
      (key: { id: string }) => key.id === keyId,
    );
  const personalKeyNow = async () =>
    (await owner.get(`/console/api/orgs/${owner.org}/keys`)).body.find(
      (key: { id: string }) => key.id === personalId,
    );

  async function keysPage(scheme: 'light' | 'dark' = 'light', width = 1280) {
    const context = await browser.newContext({
      viewport: { width, height: 900 },
      colorScheme: scheme,
      ...(width < 600 ? { isMobile: true, hasTouch: true, deviceScaleFactor: 2 } : {}),
    });
    const [name, value] = owner.cookie.split('=');
    await context.addCookies([{ name, value, url: t.url }]);
    const page = await context.newPage();
    const problems = watch(page, t.url);
    await page.goto(`${t.url}/console/keys?org=${owner.org}`);
    await page.getByRole('table', { name: 'Keys of ci' }).waitFor();
    return { context, page, problems };
  }

  const row = (page: Page, name: string) => page.getByRole('row', { name: new RegExp(`^${name}\\b`) });

  it('sets requests/min, tokens/min and allowed models of a service-account key; the API has them, the row says them', async () => {
    const { context, page, problems } = await keysPage();
    expect(await row(page, 'deploy').getByRole('cell', { name: 'no limits' }).count()).toBe(1);

    await page.getByRole('button', { name: 'Edit controls of deploy' }).click();
    const form = page.getByRole('form', { name: 'Controls of deploy' });
    // The focus goes into the form.
    expect(await page.evaluate('document.activeElement.id')).toBe(`controls-${keyId}-requests`);
    await form.getByLabel('Requests per minute').fill('60');
    await form.getByLabel('Tokens per minute').fill('100000');
    await form.getByLabel('Other models or routes').fill('scripted/small, smart\nopenai/gpt-4o');
    await form.getByLabel('Monthly budget ($)').fill('25.5');
    expect(await accessibilityProblems(page)).toEqual([]);
    await form.getByRole('button', { name: 'Save controls' }).click();
    await row(page, 'deploy').getByText('60 req/min · 100K tok/min · 3 models · $25.50/month').waitFor();
    expect(await form.count()).toBe(0);

    expect(await serviceAccountKeyNow()).toMatchObject({
      rate_limit: { requests_per_minute: 60, tokens_per_minute: 100000 },
      allowed_models: ['scripted/small', 'smart', 'openai/gpt-4o'],
      monthly_budget_dollars: 25.5,
    });
    // The form opens again with what is stored.
    await page.getByRole('button', { name: 'Edit controls of deploy' }).click();
    expect(await form.getByLabel('Other models or routes').inputValue()).toBe(
      'scripted/small\nsmart\nopenai/gpt-4o',
    );
    await form.getByRole('button', { name: 'Cancel' }).click();
    expect(problems).toEqual([]);
    await context.close();
  });

  it('a bad value is refused next to its field, and nothing changes', async () => {
    const { context, page, problems } = await keysPage();
    const before = await serviceAccountKeyNow();
    await page.getByRole('button', { name: 'Edit controls of deploy' }).click();
    const form = page.getByRole('form', { name: 'Controls of deploy' });

    await form.getByLabel('Requests per minute').fill('0');
    await form.getByRole('button', { name: 'Save controls' }).click();
    const requestsError = form.locator(`#controls-${keyId}-requests-error`);
    await requestsError.waitFor();
    expect(await requestsError.innerText()).toBe('Enter 1 or more.');
    expect(await form.getByLabel('Requests per minute').getAttribute('aria-invalid')).toBe('true');
    expect(await accessibilityProblems(page)).toEqual([]);
    expect(await serviceAccountKeyNow()).toEqual(before);

    // A model with a space in it: refused under the models box, the other error gone.
    await form.getByLabel('Requests per minute').fill('30');
    await form.getByLabel('Other models or routes').fill('scripted/small\nnot a model');
    await form.getByRole('button', { name: 'Save controls' }).click();
    const modelsError = form.locator(`#controls-${keyId}-models-error`);
    await modelsError.waitFor();
    expect(await modelsError.innerText()).toContain('printable characters without spaces');
    expect(await requestsError.count()).toBe(0);
    expect(await serviceAccountKeyNow()).toEqual(before);

    // A negative budget: refused under the budget box.
    await form.getByLabel('Other models or routes').fill('scripted/small');
    await form.getByLabel('Monthly budget ($)').fill('-5');
    await form.getByRole('button', { name: 'Save controls' }).click();
    const budgetError = form.locator(`#controls-${keyId}-budget-error`);
    await budgetError.waitFor();
    expect(await budgetError.innerText()).toBe('Enter 0 or more.');
    expect(await serviceAccountKeyNow()).toEqual(before);
    expect((await row(page, 'deploy').innerText()).replace(/\s+/g, ' ')).toContain(
      '60 req/min · 100K tok/min · 3 models · $25.50/month',
    );

    await form.getByRole('button', { name: 'Cancel' }).click();
    expect(problems).toEqual([]);
    await context.close();
  });

  it('clears every control of a key, and sets one of a personal key', async () => {
    const { context, page, problems } = await keysPage();
    await page.getByRole('button', { name: 'Edit controls of deploy' }).click();
    await page
      .getByRole('form', { name: 'Controls of deploy' })
      .getByRole('button', { name: 'Clear all controls' })
      .click();
    await row(page, 'deploy').getByRole('cell', { name: 'no limits' }).waitFor();
    expect(await serviceAccountKeyNow()).toMatchObject({
      rate_limit: { requests_per_minute: null, tokens_per_minute: null },
      allowed_models: null,
      monthly_budget_dollars: null,
    });

    await page.getByRole('button', { name: 'Edit controls of laptop' }).click();
    const form = page.getByRole('form', { name: 'Controls of laptop' });
    await form.getByLabel('Tokens per minute').fill('5000');
    await form.getByLabel('Other models or routes').fill('scripted/small');
    await form.getByRole('button', { name: 'Save controls' }).click();
    await row(page, 'laptop').getByText('5K tok/min · only scripted/small').waitFor();
    expect(await personalKeyNow()).toMatchObject({
      rate_limit: { requests_per_minute: null, tokens_per_minute: 5000 },
      allowed_models: ['scripted/small'],
    });
    // Emptying a box removes that control only.
    await page.getByRole('button', { name: 'Edit controls of laptop' }).click();
    await form.getByLabel('Other models or routes').fill('');
    await form.getByRole('button', { name: 'Save controls' }).click();
    await row(page, 'laptop').getByText('5K tok/min', { exact: true }).waitFor();
    expect((await personalKeyNow()).allowed_models).toBeNull();
    expect(problems).toEqual([]);
    await context.close();
  });

  it.each(['light', 'dark'] as const)(
    '%s: the Keys page with controls passes axe (screenshot for docs/)',
    async (scheme) => {
      await owner
        .patch(`/console/api/orgs/${owner.org}/service-accounts/${sa}/keys/${keyId}`, {
          rate_limit: { requests_per_minute: 60, tokens_per_minute: 100000 },
          allowed_models: ['scripted/small', 'smart'],
          monthly_budget_dollars: 25,
        })
        .expect(200);
      const { context, page, problems } = await keysPage(scheme);
      await row(page, 'deploy').getByText('60 req/min · 100K tok/min · 2 models · $25.00/month').waitFor();
      await page.getByRole('button', { name: 'Edit controls of deploy' }).click();
      await page.getByRole('form', { name: 'Controls of deploy' }).waitFor();
      expect(await accessibilityProblems(page)).toEqual([]);
      mkdirSync(ARTIFACTS, { recursive: true });
      await page.screenshot({ path: join(ARTIFACTS, `key-controls-${scheme}.png`), fullPage: true });
      expect(problems).toEqual([]);
      await context.close();
    },
  );

  it('at 390 px the form fits the window and passes axe', async () => {
    const { context, page, problems } = await keysPage('light', 390);
    await page.getByRole('button', { name: 'Edit controls of laptop' }).click();
    const form = page.getByRole('form', { name: 'Controls of laptop' });
    await form.getByLabel('Requests per minute').fill('0');
    await form.getByRole('button', { name: 'Save controls' }).click();
    await form.locator(`#controls-${personalId}-requests-error`).waitFor();
    expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);
    expect(await accessibilityProblems(page)).toEqual([]);
    mkdirSync(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: join(ARTIFACTS, 'key-controls-phone.png'), fullPage: true });
    expect(problems).toEqual([]);
    await context.close();
  });
});
