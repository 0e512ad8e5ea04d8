import { launchBrowser } from '../../helpers/browser';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { Browser } from 'playwright-core';
import { bearer, Person, serviceAccountKey, signup } from '../../helpers/console';
import { upstreamCatalogue } from '../../helpers/gateway-catalogue';
import { ScriptedModelServer } from '../../helpers/scripted-model-server';
import { createTestApp, TestApp } from '../../helpers/test-app';

const ARTIFACTS = join(__dirname, '..', '..', 'artifacts', 'console-web');

/** $1 / $2 per million input / output tokens. */
const catalogue = (upstream: ScriptedModelServer) =>
  upstreamCatalogue(upstream, [
    {
      name: 'scripted',
      schema: 'openai-chat',
      keyEnv: 'SCRIPTED_OPENAI_KEY',
      models: ['small: { prices: { input: 1, output: 2 } }'],
    },
  ]);

describe('usage and budgets pages show what the gateway recorded', () => {
  let t: TestApp;
  let upstream: ScriptedModelServer;
  let browser: Browser;
  let owner: Person;

  beforeAll(async () => {
    upstream = await ScriptedModelServer.start();
    t = await createTestApp({
      env: {
        OUTPOST_GATEWAY_CONFIG: catalogue(upstream),
        SCRIPTED_OPENAI_KEY: 'sk-upstream-0000',
        // The connection's scripted upstream listens on loopback, which connections may not reach by default.
        OUTPOST_CONNECTIONS_ALLOW: '127.0.0.1',
      },
    });
    owner = await signup(t, 'owner@example.com');
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await t.close();
    await upstream.close();
  });

  it('two calls of $2.00 each with a service-account key: $4.00 by member, key, model and day, and on the budget bar', async () => {
    const { sa, keyId, key } = await serviceAccountKey(owner, owner.org, 'inference');
    for (let i = 0; i < 2; i++) {
      upstream.script({ text: 'hi', usage: { input: 1_000_000, output: 500_000 } });
      const res = await fetch(`${t.url}/inference/openai/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: bearer(key), 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'scripted/small', messages: [{ role: 'user', content: 'hi' }] }),
      });
      expect(res.status).toBe(200);
    }
    // Usage is settled in batches: wait until the ledger has both.
    for (let i = 0; i < 100; i++) {
      const res = await owner.get(`/console/api/orgs/${owner.org}/usage?group_by=member`);
      if (res.body.data?.[0]?.spent_micro_cents === '400000000') break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }

    const context = await browser.newContext({ viewport: { width: 1100, height: 900 } });
    await context.addCookies([{ name: 'outpost_console', value: owner.cookie.split('=')[1], url: t.url }]);
    const page = await context.newPage();
    const outside: string[] = [];
    page.on('request', (request) => {
      if (!request.url().startsWith(t.url)) outside.push(request.url());
    });
    await page.goto(`${t.url}/console/usage?org=${owner.org}`);
    await page.getByRole('img', { name: 'Spend per day this month' }).waitFor();
    const main = await page.locator('main').innerText();
    expect(main).toContain('ci');
    expect(main).toContain('ci / deploy');
    expect(keyId).toMatch(/^key_/);
    expect(main).toContain('scripted/small');
    expect(main.match(/\$4\.00/g)?.length).toBeGreaterThanOrEqual(3);
    // Every day of the month is a bar; one of them has spend.
    expect(await page.locator('svg rect').count()).toBeGreaterThanOrEqual(28);
    expect(await page.locator('svg rect[fill="#2f5bd3"]').count()).toBe(1);
    mkdirSync(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: join(ARTIFACTS, '20-usage-with-spend.png'), fullPage: true });
    // The same days as requests and as tokens.
    await page.getByRole('radio', { name: 'Requests' }).check();
    await page.getByRole('img', { name: 'Requests per day this month' }).waitFor();
    expect(await page.locator('figcaption').innerText()).toBe('Requests per UTC day (highest: 2 requests).');
    await page.getByRole('radio', { name: 'Tokens' }).check();
    await page.getByRole('img', { name: 'Tokens per day this month' }).waitFor();
    expect(await page.locator('figcaption').innerText()).toBe(
      'Tokens per UTC day (highest: 3,000,000 tokens).',
    );
    expect(await page.locator('svg rect[fill="#2f5bd3"]').count()).toBe(1);
    await page.getByRole('radio', { name: 'Spend' }).check();

    // The budget bar of the service account: $4.00 of a $5.00 limit.
    await owner
      .put(`/console/api/v1/budgets/members/${sa}`, { budget_dollars: 5 })
      .set('x-org-id', owner.org)
      .expect(204);
    await page.getByRole('link', { name: 'Budgets' }).click();
    const row = page.getByRole('row', { name: /ci/ });
    await row.getByText('$5.00', { exact: true }).waitFor();
    expect(await row.innerText()).toContain('$4.00');
    expect(await row.getByRole('meter').getAttribute('aria-valuenow')).toBe('4');
    await page.screenshot({ path: join(ARTIFACTS, '21-budgets-with-spend.png'), fullPage: true });
    expect(outside).toEqual([]);
    await context.close();
  });

  it('spend below a cent says so, on the usage and budgets pages, instead of $0.00', async () => {
    const sa = await owner.post(`/console/api/orgs/${owner.org}/service-accounts`, { name: 'tiny' });
    const created = await owner.post(`/console/api/orgs/${owner.org}/service-accounts/${sa.body.id}/keys`, {
      name: 'sip',
      permission: 'inference',
    });
    upstream.script({ text: 'hi', usage: { input: 100, output: 0 } });
    const res = await fetch(`${t.url}/inference/openai/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: bearer(created.body.key), 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'scripted/small', messages: [{ role: 'user', content: 'hi' }] }),
    });
    expect(res.status).toBe(200);
    let spent = '0';
    for (let i = 0; i < 100 && spent === '0'; i++) {
      const usage = await owner.get(`/console/api/orgs/${owner.org}/usage?group_by=member`);
      spent =
        usage.body.data?.find((row: { key: string }) => row.key === sa.body.id)?.spent_micro_cents ?? '0';
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(Number(spent)).toBeGreaterThan(0);
    expect(Number(spent)).toBeLessThan(1_000_000);

    const context = await browser.newContext({ viewport: { width: 1100, height: 900 } });
    await context.addCookies([{ name: 'outpost_console', value: owner.cookie.split('=')[1], url: t.url }]);
    const page = await context.newPage();
    await page.goto(`${t.url}/console/usage?org=${owner.org}`);
    await page.getByRole('img', { name: 'Spend per day this month' }).waitFor();
    const usageRow = page.getByRole('row', { name: /tiny/ }).first();
    expect(await usageRow.innerText()).toContain('less than $0.01');
    await page.goto(`${t.url}/console/budgets?org=${owner.org}`);
    const budgetRow = page.getByRole('row', { name: /tiny/ });
    await budgetRow.getByText('less than $0.01').waitFor();
    expect(await budgetRow.innerText()).not.toContain('$0.00');
    await context.close();
  });

  it('usage through a connection is named by the connection, not by its conn_… id', async () => {
    const created = await owner.post(`/console/api/orgs/${owner.org}/connections`, {
      name: 'Own upstream',
      base_url: upstream.baseURL,
      schema: 'openai-chat',
      auth: { mode: 'bearer', credential: 'byok-usage-credential' },
      models: { ok: { name: 'OK', prices: { input: 1, output: 1 } } },
    });
    expect(created.status).toBe(201);
    const { key } = await serviceAccountKey(owner, owner.org, 'inference');
    upstream.script({ text: 'hi', usage: { input: 1000, output: 1000 } });
    const res = await fetch(`${t.url}/inference/custom/${created.body.id}/chat/completions`, {
      method: 'POST',
      headers: { authorization: bearer(key), 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'ok', messages: [{ role: 'user', content: 'hi' }] }),
    });
    expect(res.status).toBe(200);
    let modelKeys: string[] = [];
    for (let i = 0; i < 100 && !modelKeys.some((k) => k.startsWith(created.body.id)); i++) {
      const usage = await owner.get(`/console/api/orgs/${owner.org}/usage?group_by=model`);
      modelKeys = (usage.body.data ?? []).map((row: { key: string }) => row.key);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(modelKeys).toContain(`${created.body.id}/ok`);

    const context = await browser.newContext({ viewport: { width: 1100, height: 900 } });
    await context.addCookies([{ name: 'outpost_console', value: owner.cookie.split('=')[1], url: t.url }]);
    const page = await context.newPage();
    await page.goto(`${t.url}/console/usage?org=${owner.org}`);
    await page.getByRole('img', { name: 'Spend per day this month' }).waitFor();
    // The connection's name and its model's name ("OK"), as the request log names them.
    await page.getByRole('cell', { name: 'Own upstream / OK' }).waitFor();
    expect(await page.locator('main').innerText()).not.toMatch(/conn_|key_/);
    await context.close();
  });

  it('a month of free models only starts on requests, not on an empty spend chart', async () => {
    const free = await signup(t, 'free@example.com');
    const created = await free.post(`/console/api/orgs/${free.org}/connections`, {
      name: 'Local',
      base_url: upstream.baseURL,
      schema: 'openai-chat',
      auth: { mode: 'bearer', credential: 'local-credential' },
      models: { llama: { name: 'Llama', prices: { input: 0, output: 0 } } },
    });
    expect(created.status).toBe(201);
    const { key } = await serviceAccountKey(free, free.org, 'inference');
    upstream.script({ text: 'hi', usage: { input: 10, output: 20 } });
    const res = await fetch(`${t.url}/inference/custom/${created.body.id}/chat/completions`, {
      method: 'POST',
      headers: { authorization: bearer(key), 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'llama', messages: [{ role: 'user', content: 'hi' }] }),
    });
    expect(res.status).toBe(200);
    let requests = 0;
    for (let i = 0; i < 100 && requests === 0; i++) {
      const usage = await free.get(`/console/api/orgs/${free.org}/usage?group_by=day`);
      requests = usage.body.data?.[0]?.requests ?? 0;
      if (requests === 0) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(requests).toBe(1);

    const context = await browser.newContext({ viewport: { width: 1100, height: 900 } });
    await context.addCookies([{ name: 'outpost_console', value: free.cookie.split('=')[1], url: t.url }]);
    const page = await context.newPage();
    await page.goto(`${t.url}/console/usage?org=${free.org}`);
    await page.getByRole('img', { name: 'Requests per day this month' }).waitFor();
    expect(await page.getByRole('radio', { name: 'Requests' }).isChecked()).toBe(true);
    expect(await page.locator('svg rect[fill="#2f5bd3"]').count()).toBe(1);
    await page.getByRole('radio', { name: 'Tokens' }).check();
    expect(await page.locator('figcaption').innerText()).toBe('Tokens per UTC day (highest: 30 tokens).');
    await page.screenshot({ path: join(ARTIFACTS, '22-usage-free-models.png'), fullPage: true });
    await context.close();
  });
});
