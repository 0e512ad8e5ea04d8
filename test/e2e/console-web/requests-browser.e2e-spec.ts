import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Browser, Page } from 'playwright-core';
import { accessibilityProblems } from '../../helpers/axe';
import { launchBrowser, watch } from '../../helpers/browser';
import { addMember, bearer, Person, serviceAccountKey, signup } from '../../helpers/console';
import { ScriptedModelServer } from '../../helpers/scripted-model-server';
import { createTestApp, TestApp } from '../../helpers/test-app';

const ARTIFACTS = join(__dirname, '..', '..', 'artifacts', 'console-web');

interface LogRow {
  id: string;
  status: number;
  model: string;
  member: string;
}

describe('Usage → Requests: the gateway’s calls one by one in the console (Debian chromium)', () => {
  let t: TestApp;
  let upstream: ScriptedModelServer;
  let browser: Browser;
  let owner: Person;
  let member: Person;
  let key: string;
  let keyId: string;
  let sa: string;

  beforeAll(async () => {
    upstream = await ScriptedModelServer.start();
    upstream.answerUnstreamed = true;
    upstream.fallback = { text: 'ok', usage: { input: 1200, output: 300 } };
    const file = join(mkdtempSync(join(tmpdir(), 'outpost-requests-page-')), 'gateway.yaml');
    writeFileSync(
      file,
      `providers:\n  scripted:\n    base_url: ${upstream.baseURL}\n    schema: openai-chat\n    api_key_env: SCRIPTED_KEY\n    models:\n      small: { prices: { input: 1, output: 2 } }\n      large: { prices: { input: 3, output: 15 } }\n`,
    );
    t = await createTestApp({ env: { OUTPOST_GATEWAY_CONFIG: file, SCRIPTED_KEY: 'sk-scripted' } });
    browser = await launchBrowser();
    owner = await signup(t, 'owner@example.com');
    member = await signup(t, 'member@example.com');
    await addMember(owner, owner.org, member, 'member');
    ({ key, keyId, sa } = await serviceAccountKey(owner, owner.org, 'inference'));
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
    await upstream?.close();
  });

  const gateway = (credential: string, body: object) =>
    t.http
      .post('/inference/openai/v1/chat/completions')
      .set('authorization', bearer(credential))
      .send({
        model: 'scripted/small',
        messages: [{ role: 'user', content: 'hi' }],
        max_tokens: 50,
        ...body,
      });

  /** The log is written in batches: the rows once `count` are there. */
  async function logged(who: Person, count: number): Promise<LogRow[]> {
    for (let i = 0; ; i++) {
      const res = await who.get(`/console/api/orgs/${owner.org}/usage/requests`);
      if (res.body.data?.length >= count || i > 100) return res.body.data;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  async function open(who: Person, path: string, scheme: 'light' | 'dark' = 'light') {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, colorScheme: scheme });
    const [name, value] = who.cookie.split('=');
    await context.addCookies([{ name, value, url: t.url }]);
    const page = await context.newPage();
    const problems = watch(page, t.url);
    await page.goto(`${t.url}${path}`);
    return { context, page, problems };
  }

  const bodyRows = (page: Page) => page.locator('table.requests tbody tr');
  /** Waits until the table shows `count` calls. */
  const shown = async (page: Page, count: number) => {
    await bodyRows(page)
      .nth(count - 1)
      .waitFor();
    await bodyRows(page).nth(count).waitFor({ state: 'detached' });
  };

  it('with no call yet, says so in a sentence; reached from the Usage tab', async () => {
    const { context, page, problems } = await open(owner, `/console/usage?org=${owner.org}`);
    await page.getByRole('navigation', { name: 'Usage' }).getByRole('link', { name: 'Requests' }).click();
    await page.getByText('No gateway calls yet', { exact: false }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/console/usage/requests');
    // The console's own tab stays on Usage.
    expect(
      await page.getByRole('navigation', { name: 'Console' }).locator('[aria-current="page"]').innerText(),
    ).toBe('Usage');
    expect(await accessibilityProblems(page)).toEqual([]);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('lists the calls newest first, filters by status and model in the address, pages with Load more, and links a CSV of the same filters', async () => {
    expect((await gateway(key, {})).status).toBe(200);
    expect((await gateway(key, { model: 'scripted/large' })).status).toBe(200);
    expect((await gateway(key, {})).status).toBe(200);
    expect((await gateway(key, { max_tokens: 0 })).status).toBe(400);
    expect((await gateway(key, {})).status).toBe(200);
    const rows = await logged(owner, 5);
    expect(rows.map((row) => row.status)).toEqual([200, 400, 200, 200, 200]);

    const { context, page, problems } = await open(owner, `/console/usage/requests?org=${owner.org}`);
    await bodyRows(page).first().getByText('ci / deploy').waitFor(); // the names arrive beside the rows
    expect(await bodyRows(page).count()).toBe(5);
    const newest = await bodyRows(page).first().innerText();
    expect(newest).toContain('ci / deploy');
    expect(newest).toMatch(/scripted\/small/);
    expect(newest).toMatch(/200\s+answered/);
    expect(newest).toContain('1,200 / 300');
    // 1,200 × $1 + 300 × $2 per million tokens.
    expect(newest).toContain('$0.0018');
    expect(newest).toMatch(/\d+ ms/);
    expect(await bodyRows(page).nth(1).innerText()).toMatch(/400\s+invalid/);
    expect(await page.locator('main').innerText()).not.toMatch(/\b(usr|sa|key)_[0-9A-Z]{10}/);
    expect(await accessibilityProblems(page)).toEqual([]);

    // Status 400: one row; the address and the CSV link carry the filter.
    await page.getByLabel('Status').selectOption('400');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await page.waitForURL(/status=400/);
    await shown(page, 1);
    expect(await bodyRows(page).first().innerText()).toMatch(/400\s+invalid/);
    const csvHref = await page.getByRole('link', { name: 'Download CSV' }).getAttribute('href');
    expect(csvHref).toContain('status=400');
    expect(csvHref).toContain('format=csv');
    const csv = (await page.evaluate(`fetch(${JSON.stringify(csvHref)}).then((r) => r.text())`)) as string;
    const lines = csv.trim().split('\r\n');
    expect(lines[0]).toMatch(
      /^time,request_id,member,member_name,key,key_name,route,model,model_name,served_by,status,outcome,/,
    );
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain(',400,invalid,');

    // The address alone brings the same view back.
    await page.reload();
    await shown(page, 1);
    expect(await page.getByLabel('Status').inputValue()).toBe('400');

    // Model instead of status: the one call of scripted/large.
    await page.getByRole('button', { name: 'Clear filters' }).click();
    await shown(page, 5);
    await page.getByLabel('Model').fill('scripted/large');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await page.waitForURL(/model=scripted%2Flarge/);
    await shown(page, 1);
    expect(await bodyRows(page).first().innerText()).toContain('scripted/large');
    expect(await page.getByRole('link', { name: 'Download CSV' }).getAttribute('href')).toContain(
      'model=scripted%2Flarge',
    );
    // A filter that matches nothing says so.
    await page.getByLabel('Model').fill('no/such-model');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await page.getByText('No gateway call matches these filters.').waitFor();
    // Days (UTC): from tomorrow is nothing yet; up to today, included, is every call.
    const today = new Date().toISOString().slice(0, 10);
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    await page.getByRole('button', { name: 'Clear filters' }).click();
    await shown(page, 5);
    await page.getByLabel('From (UTC day)').fill(tomorrow);
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await page.getByText('No gateway call matches these filters.').waitFor();
    expect(page.url()).toContain(`from=${tomorrow}`);
    await page.getByLabel('From (UTC day)').fill(today);
    await page.getByLabel('To (UTC day, included)').fill(today);
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await page.waitForURL(new RegExp(`to=${today}`));
    await shown(page, 5);
    expect(problems).toEqual([]);
    await context.close();

    // Two at a time: Load more brings the older ones, in order, until there are none.
    const paged = await open(owner, `/console/usage/requests?org=${owner.org}&key=${keyId}&limit=2`);
    await shown(paged.page, 2);
    await paged.page.getByRole('button', { name: 'Load more' }).click();
    await shown(paged.page, 4);
    await paged.page.getByRole('button', { name: 'Load more' }).click();
    await shown(paged.page, 5);
    await paged.page.getByText('5 calls shown, the oldest included.').waitFor();
    expect(await paged.page.getByRole('button', { name: 'Load more' }).count()).toBe(0);
    const times = await paged.page
      .locator('table.requests tbody time')
      .evaluateAll((cells) => cells.map((cell) => cell.getAttribute('datetime')));
    expect([...times].sort().reverse()).toEqual(times);
    expect(await paged.page.getByLabel('Key').inputValue()).toBe(keyId);
    expect(paged.problems).toEqual([]);
    await paged.context.close();
  });

  it('the Keys page shows what a key with a budget of its own spent this month', async () => {
    await owner
      .patch(`/console/api/orgs/${owner.org}/service-accounts/${sa}/keys/${keyId}`, {
        monthly_budget_dollars: 1,
      })
      .expect(200);
    // Spend is settled in batches: wait for the usage report to have the key's four answered calls.
    for (let i = 0; i < 100; i++) {
      const usage = await owner.get(`/console/api/orgs/${owner.org}/usage?group_by=key`);
      if (usage.body.data?.find((row: { key: string }) => row.key === keyId)?.requests === 4) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const { context, page, problems } = await open(owner, `/console/keys?org=${owner.org}`);
    // 3 × $0.0018 + $0.0081 = $0.0135.
    await page
      .getByRole('row', { name: /^deploy\b/ })
      .getByText('$1.00/month ($0.01 spent)')
      .waitFor();
    expect(problems).toEqual([]);
    await context.close();
  });

  it('a member sees only their own calls, and no member filter', async () => {
    const personal = await member.post(`/console/api/orgs/${owner.org}/keys`, {
      name: 'mine',
      permission: 'inference',
    });
    expect(personal.status).toBe(201);
    expect((await gateway(personal.body.key, {})).status).toBe(200);
    expect((await logged(member, 1)).every((row) => row.member === member.id)).toBe(true);

    const { context, page, problems } = await open(member, `/console/usage/requests?org=${owner.org}`);
    // Names are read beside the rows: the key's name replaces its short form once they arrive.
    await bodyRows(page).first().getByText('your key mine').waitFor();
    expect(await bodyRows(page).count()).toBe(1);
    expect(await page.getByLabel('Member').count()).toBe(0);
    expect(await accessibilityProblems(page)).toEqual([]);
    expect(problems).toEqual([]);
    await context.close();
  });

  it.each(['light', 'dark'] as const)(
    '%s: the Requests page passes axe (screenshot for docs/)',
    async (scheme) => {
      const { context, page, problems } = await open(
        owner,
        `/console/usage/requests?org=${owner.org}`,
        scheme,
      );
      await bodyRows(page).first().waitFor();
      mkdirSync(ARTIFACTS, { recursive: true });
      await page.screenshot({ path: join(ARTIFACTS, `requests-${scheme}.png`), fullPage: true });
      expect(await accessibilityProblems(page)).toEqual([]);
      expect(problems).toEqual([]);
      await context.close();
    },
  );
});
