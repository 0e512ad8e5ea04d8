import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { Browser, Page } from 'playwright-core';
import { accessibilityProblems } from '../../helpers/axe';
import { launchBrowser, screenshot } from '../../helpers/browser';
import { projectDir } from '../../helpers/project-dir';
import { ScriptedModelServer } from '../../helpers/scripted-model-server';
import { basic, createTestApp, TestApp } from '../../helpers/test-app';
import { api, Api, pollUntil } from '../../helpers/prompt';
import { DESKTOP, fitsWidth, hasFocus, PHONE, signedInPage } from '../../helpers/web-app';

const KEY = 'sk-local-models-page-7c1e';
const SECOND_KEY = 'sk-second-provider-90ab';

describe('the Models page: no model at first, a provider added with its key kept in the data folder (Debian chromium)', () => {
  let t: TestApp;
  let server: ScriptedModelServer;
  let browser: Browser;
  let a: Api;
  let project: string;

  beforeAll(async () => {
    server = await ScriptedModelServer.start();
    project = projectDir({ 'README.md': 'no provider configured here' });
    t = await createTestApp({ env: { OUTPOST_DEFAULT_DIRECTORY: project } });
    a = api(t);
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
    await server?.close();
  });

  const post = (body: Record<string, unknown>) =>
    t.http.post('/api/provider').set('authorization', basic()).send(body);

  it('the API refuses a malformed provider with a 400 naming the field, and writes nothing', async () => {
    const valid = { kind: 'openai-compatible', id: 'x', apiKey: 'k', models: ['m'], baseURL: server.baseURL };
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ ...valid, baseURL: undefined }, 'baseURL'],
      [{ ...valid, baseURL: 'ftp://nowhere' }, 'baseURL'],
      [{ ...valid, id: 'Not An Id' }, 'id'],
      [{ ...valid, kind: 'gemini' }, 'kind'],
      [{ ...valid, apiKey: '' }, 'apiKey'],
      [{ ...valid, models: [] }, 'models'],
    ];
    for (const [body, field] of cases) {
      const res = await post(body);
      expect({ field, status: res.status, body: JSON.stringify(res.body) }).toMatchObject({
        field,
        status: 400,
      });
      expect(JSON.stringify(res.body)).toContain(field);
    }
    expect(() => statSync(join(t.dataDir, 'provider-keys.json'))).toThrow();
  });

  async function openModels(page: Page) {
    await page.goto(`${t.url}/#/models`);
    await page.getByRole('heading', { name: 'Models', exact: true }).waitFor();
  }

  it('at 1280 px: the empty state says how to get a model; the form adds an OpenAI-compatible provider; its key is 0600 in the data folder, outpost.json holds a reference; a prompt uses it', async () => {
    const { page, context, problems } = await signedInPage(browser, t, DESKTOP);
    await page.getByText('add one on the Models page').waitFor();
    await openModels(page);
    const here = page.getByRole('region', { name: `Models in ${project}` });
    await here.getByText('No model here yet: add a provider below, or sign in to a console.').waitFor();
    await page.getByRole('heading', { name: 'Or sign in to a console' }).waitFor();
    await screenshot(page, 'models-empty-desktop');

    await page.getByLabel('Provider', { exact: true }).selectOption('openai-compatible');
    await page.getByLabel('Provider id').fill('local');
    await page.getByLabel('Base URL').fill(server.baseURL);
    await page.getByLabel('API key').fill(KEY);
    await page.getByLabel('Models (ids, separated by commas)').fill('small, large');
    await page.getByRole('button', { name: 'Add provider' }).click();
    const notice = page.getByRole('status').filter({ hasText: 'Added local' });
    await notice.waitFor();
    expect(await notice.innerText()).toContain('{env:OUTPOST_KEY_LOCAL}');
    expect(await notice.innerText()).not.toContain(KEY);
    await here.getByText('local: small, large').waitFor();
    expect(await page.getByLabel('API key').inputValue()).toBe('');
    await screenshot(page, 'models-added-desktop');

    const keys = join(t.dataDir, 'provider-keys.json');
    expect(statSync(keys).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(keys, 'utf8'))).toEqual({ OUTPOST_KEY_LOCAL: KEY });
    const config = readFileSync(join(t.dataDir, 'config', 'outpost.json'), 'utf8');
    expect(config).not.toContain(KEY);
    expect(JSON.parse(config).provider.local).toMatchObject({
      package: 'aisdk:@ai-sdk/openai-compatible',
      settings: { baseURL: server.baseURL, apiKey: '{env:OUTPOST_KEY_LOCAL}' },
      models: { small: { name: 'small' }, large: { name: 'large' } },
    });
    for (const path of ['/api/provider', '/api/model', '/api/info']) {
      const res = await t.http.get(path).set('authorization', basic());
      expect(JSON.stringify(res.body)).not.toContain(KEY);
    }

    // The key reaches the provider, from the data folder.
    const session = await a.createSession(project, { model: { providerID: 'local', id: 'small' } });
    server.script({ text: 'Hello through the key in the data folder.' });
    expect((await a.prompt(session, { text: 'hi' })).status).toBe(200);
    await pollUntil('the answer', async () =>
      JSON.stringify(await a.messages(session)).includes('Hello through the key in the data folder.'),
    );
    expect(server.requests.at(-1)!.headers.authorization).toBe(`Bearer ${KEY}`);

    // Test: one small real call; then a refusal, named with the provider, its URL and what to check.
    server.script({ text: 'p' });
    await here.getByRole('button', { name: 'Test local' }).click();
    const passed = here.getByTestId('provider-test-local');
    await passed.filter({ hasText: 'answered' }).waitFor();
    expect(await passed.innerText()).toMatch(
      /^Provider “local” at http:\/\/127\.0\.0\.1:\d+\/v1 answered \(model small, \d+ ms\)\.$/,
    );
    server.script({ error: { status: 401, message: 'Incorrect API key provided' } });
    await here.getByRole('button', { name: 'Test local' }).click();
    await passed.filter({ hasText: 'refused' }).waitFor();
    expect(await passed.innerText()).toContain(
      'refused the call with HTTP 401: Incorrect API key provided. Check the credential.',
    );
    expect(await passed.getAttribute('class')).toBe('error');
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      expect({ scheme, problems: await accessibilityProblems(page) }).toEqual({ scheme, problems: [] });
      await screenshot(page, `models-test-${scheme}-1280`);
    }
    expect(problems).toEqual([]);
    await context.close();
  });

  it('at 390 px, keyboard only: a second provider is added; errors stand next to their field', async () => {
    const { page, context, problems } = await signedInPage(browser, t, PHONE);
    await openModels(page);
    const kind = page.getByLabel('Provider', { exact: true });
    await kind.focus();
    // The kind select: down to "OpenAI-compatible" (OpenAI, Anthropic, OpenAI-compatible).
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    expect(await kind.inputValue()).toBe('openai-compatible');
    await page.keyboard.press('Tab');
    expect(await hasFocus(page.getByLabel('Provider id'))).toBe(true);
    await page.keyboard.press('Control+A');
    await page.keyboard.type('second');
    await page.keyboard.press('Tab');
    await page.keyboard.type('not a url');
    await page.keyboard.press('Tab');
    await page.keyboard.type(SECOND_KEY);
    await page.keyboard.press('Tab');
    await page.keyboard.type('tiny');
    await page.keyboard.press('Enter');
    const baseError = page.locator('#provider-baseURL-error');
    await baseError.waitFor();
    expect(await baseError.innerText()).toBe('Enter a full address that starts with http:// or https://.');
    expect(await page.getByLabel('Base URL').getAttribute('aria-describedby')).toBe('provider-baseURL-error');
    await screenshot(page, 'models-error-phone');

    await page.getByLabel('Base URL').focus();
    await page.keyboard.press('Control+A');
    await page.keyboard.type(server.baseURL);
    await page.keyboard.press('Enter');
    await page.getByRole('status').filter({ hasText: 'Added second' }).waitFor();
    const here = page.getByRole('region', { name: `Models in ${project}` });
    await here.getByText('second: tiny').waitFor();
    expect(await fitsWidth(page)).toBe(true);
    await screenshot(page, 'models-added-phone');
    // Test, from the keyboard: nothing listens behind a closed provider, and the answer fits the phone.
    server.script({ error: { status: 404, message: 'The model `tiny` does not exist' } });
    await here.getByRole('button', { name: 'Test second' }).focus();
    await page.keyboard.press('Enter');
    const outcome = here.getByTestId('provider-test-second');
    await outcome.filter({ hasText: 'HTTP 404' }).waitFor();
    expect(await outcome.innerText()).toContain(
      'Check the base URL (it usually ends in /v1) and the model id.',
    );
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      expect({ scheme, problems: await accessibilityProblems(page), fits: await fitsWidth(page) }).toEqual({
        scheme,
        problems: [],
        fits: true,
      });
      await screenshot(page, `models-test-${scheme}-390`);
    }
    expect(JSON.parse(readFileSync(join(t.dataDir, 'provider-keys.json'), 'utf8'))).toEqual({
      OUTPOST_KEY_LOCAL: KEY,
      OUTPOST_KEY_SECOND: SECOND_KEY,
    });
    expect(problems).toEqual([]);
    await context.close();
  });
});
