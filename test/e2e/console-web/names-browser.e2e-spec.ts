import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Browser, Page } from 'playwright-core';
import { accessibilityProblems } from '../../helpers/axe';
import { launchBrowser, watch } from '../../helpers/browser';
import { bearer, Person, serviceAccountKey, signup } from '../../helpers/console';
import { eventually } from '../../helpers/eventually';
import { ScriptedModelServer } from '../../helpers/scripted-model-server';
import { createTestApp, TestApp } from '../../helpers/test-app';
import { ARTIFACTS } from '../../helpers/browser';

const SHOTS = join(ARTIFACTS, '..', 'console-names');

/**
 * Issue 48: the console's key controls pick models by name (the workspace config's and the connections'), storing
 * what the API stores, and the request log names a connection's model; neither shows a `conn_…` id (Debian
 * chromium).
 */
describe('the console names models where it showed conn_ ids: key controls and the request log', () => {
  let t: TestApp;
  let upstream: ScriptedModelServer;
  let browser: Browser;
  let owner: Person;
  let sa: string;
  let key: string;
  let keyId: string;
  let connection: string;

  beforeAll(async () => {
    upstream = await ScriptedModelServer.start();
    upstream.answerUnstreamed = true;
    upstream.fallback = { text: 'ok', usage: { input: 1000, output: 500 } };
    const file = join(mkdtempSync(join(tmpdir(), 'outpost-console-names-')), 'gateway.yaml');
    writeFileSync(
      file,
      `providers:\n  scripted:\n    base_url: ${upstream.baseURL}\n    schema: openai-chat\n    api_key_env: SCRIPTED_KEY\n    models:\n      small: { prices: { input: 1, output: 2 } }\n`,
    );
    t = await createTestApp({
      env: {
        OUTPOST_GATEWAY_CONFIG: file,
        SCRIPTED_KEY: 'sk-scripted',
        OUTPOST_CONNECTIONS_ALLOW: '127.0.0.1',
      },
    });
    browser = await launchBrowser();
    owner = await signup(t, 'owner@example.com');
    ({ sa, key, keyId } = await serviceAccountKey(owner, owner.org, 'inference'));
    const created = await owner.post(`/console/api/orgs/${owner.org}/connections`, {
      name: 'Together',
      base_url: upstream.baseURL,
      schema: 'openai-chat',
      auth: { mode: 'bearer', credential: 'sk-connection-secret' },
      models: {
        'llama-70b': { name: 'Llama 3.3 70B', prices: { input: 3, output: 6 } },
        'qwen-coder': { name: 'Qwen 2.5 Coder' },
      },
    });
    expect(created.status).toBe(201);
    connection = created.body.id;
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
    await upstream?.close();
  });

  async function open(path: string, scheme: 'light' | 'dark' = 'light', width = 1280) {
    const context = await browser.newContext({
      viewport: { width, height: 900 },
      colorScheme: scheme,
      ...(width < 600 ? { isMobile: true, hasTouch: true, deviceScaleFactor: 2 } : {}),
    });
    const [name, value] = owner.cookie.split('=');
    await context.addCookies([{ name, value, url: t.url }]);
    const page = await context.newPage();
    const problems = watch(page, t.url);
    await page.goto(`${t.url}${path}`);
    return { context, page, problems };
  }
  const noIds = async (text: Promise<string>) => expect(await text).not.toMatch(/\bconn_[0-9A-Z]/);
  const keyNow = async () =>
    (await owner.get(`/console/api/orgs/${owner.org}/service-accounts/${sa}/keys`)).body.find(
      (item: { id: string }) => item.id === keyId,
    );

  async function controlsForm(page: Page) {
    await page.getByRole('button', { name: 'Edit controls of deploy' }).click();
    const form = page.getByRole('form', { name: 'Controls of deploy' });
    await form.getByRole('group', { name: 'Together' }).getByLabel('Llama 3.3 70B').waitFor();
    return form;
  }

  it('the key controls list the models by name, grouped by provider; a pick stores the connection model id', async () => {
    const { context, page, problems } = await open(`/console/keys?org=${owner.org}`);
    const form = await controlsForm(page);
    // The gateway's catalogue model, by the provider the workspace config offers it under.
    await form.getByRole('group', { name: 'Outpost gateway' }).getByLabel('scripted/small').waitFor();
    await noIds(form.innerText());
    await form.getByRole('group', { name: 'Together' }).getByLabel('Llama 3.3 70B').check();
    await form.getByLabel('Other models or routes').fill('search/srch_unlisted');
    expect(await accessibilityProblems(page)).toEqual([]);
    await form.getByRole('button', { name: 'Save controls' }).click();
    await page
      .getByRole('row', { name: /^deploy\b/ })
      .getByText('2 models')
      .waitFor();
    expect((await keyNow()).allowed_models).toEqual([`${connection}/llama-70b`, 'search/srch_unlisted']);

    // Opened again: the stored connection model is ticked by name, the other stays in its box.
    const again = await controlsForm(page);
    expect(await again.getByRole('group', { name: 'Together' }).getByLabel('Llama 3.3 70B').isChecked()).toBe(
      true,
    );
    expect(await again.getByLabel('Qwen 2.5 Coder').isChecked()).toBe(false);
    expect(await again.getByLabel('Other models or routes').inputValue()).toBe('search/srch_unlisted');
    // Only the connection's model: the row names it.
    await again.getByLabel('Other models or routes').fill('');
    await again.getByRole('button', { name: 'Save controls' }).click();
    const row = page.getByRole('row', { name: /^deploy\b/ });
    await row.getByText('only Llama 3.3 70B (Together)').waitFor();
    await noIds(row.innerText());
    expect((await keyNow()).allowed_models).toEqual([`${connection}/llama-70b`]);
    expect(problems).toEqual([]);
    await context.close();
  });

  it("the request log names the connection's model, not its conn_ id", async () => {
    const call = await t.http
      .post('/inference/openai/v1/chat/completions')
      .set('authorization', bearer(key))
      .send({
        model: `${connection}/llama-70b`,
        messages: [{ role: 'user', content: 'hi' }],
        max_tokens: 10,
      });
    expect(call.status).toBe(200);
    // Then one of the catalogue's model, which the key may no longer call (the test above): refused, and logged
    // too (newest first: the connection's call is the second row).
    const catalogue = await t.http
      .post('/inference/openai/v1/chat/completions')
      .set('authorization', bearer(key))
      .send({ model: 'scripted/small', messages: [{ role: 'user', content: 'hi' }], max_tokens: 10 });
    expect(catalogue.status).toBe(403);
    await eventually(
      () => owner.get(`/console/api/orgs/${owner.org}/usage/requests?key=${keyId}`),
      (res) => res.status !== 200 || res.body.data.length >= 2,
    );
    const { context, page, problems } = await open(`/console/usage/requests?org=${owner.org}`);
    const rows = page.locator('table.requests tbody tr');
    await rows.nth(1).waitFor();
    const first = rows.nth(1);
    await first.getByText('Together / Llama 3.3 70B').waitFor();
    // 1,000 × $3 + 500 × $6 per million tokens.
    expect(await first.innerText()).toContain('$0.006');
    await noIds(page.locator('main').innerText());
    // The model filter offers the workspace's models by name, and filters by what the log stores.
    const offered = page.locator(`#filter-model-choices option[value="${connection}/llama-70b"]`);
    expect(await offered.getAttribute('label')).toBe('Llama 3.3 70B (Together)');
    await page.getByLabel('Model').fill(`${connection}/llama-70b`);
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await page.waitForURL(/model=conn_/);
    await rows.first().getByText('Together / Llama 3.3 70B').waitFor();
    await rows.nth(1).waitFor({ state: 'detached' });
    expect(problems).toEqual([]);
    await context.close();
  });

  for (const scheme of ['light', 'dark'] as const)
    for (const width of [1280, 390])
      it(`${scheme}, ${width} px: the key controls (fitting the window) and the request log pass axe (screenshots for docs/)`, async () => {
        const keys = await open(`/console/keys?org=${owner.org}`, scheme, width);
        await controlsForm(keys.page);
        expect(await accessibilityProblems(keys.page)).toEqual([]);
        expect(await keys.page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(width);
        await keys.page.screenshot({
          path: join(SHOTS, `key-controls-${scheme}-${width}.png`),
          fullPage: true,
        });
        expect(keys.problems).toEqual([]);
        await keys.context.close();

        const log = await open(`/console/usage/requests?org=${owner.org}`, scheme, width);
        await log.page.locator('table.requests tbody tr').getByText('Together / Llama 3.3 70B').waitFor();
        expect(await accessibilityProblems(log.page)).toEqual([]);
        await log.page.screenshot({ path: join(SHOTS, `requests-${scheme}-${width}.png`), fullPage: true });
        expect(log.problems).toEqual([]);
        await log.context.close();
      });
});
