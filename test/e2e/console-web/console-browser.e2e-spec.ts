import { launchBrowser } from '../../helpers/browser';
import { accessibilityProblems } from '../../helpers/axe';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { Browser, BrowserContext, Page } from 'playwright-core';
import { bearer, signup } from '../../helpers/console';
import { pagesOf } from '../../helpers/device';
import { createTestApp, TestApp } from '../../helpers/test-app';
import { AUDIT_ACTIONS } from '@/modules/audit/audit-actions';

const ARTIFACTS = join(__dirname, '..', '..', 'artifacts', 'console-web');
const PASSWORD = 'correct horse battery';

/** What a page must never do: load from another origin, break the CSP, or show raw JSON. */
function watch(t: TestApp, page: Page) {
  const problems: string[] = [];
  page.on('request', (request) => {
    if (!request.url().startsWith(t.url) && !request.url().startsWith('data:'))
      problems.push(`request ${request.url()}`);
  });
  page.on('console', (message) => {
    if (/Content Security Policy|Refused to|Uncaught/.test(message.text())) problems.push(message.text());
  });
  page.on('pageerror', (error) => problems.push(`page error ${error.message}`));
  return problems;
}

/** On a phone the page fits the screen: no table scrolls sideways, no part of a row is out of sight. */
async function fitsTheScreen(page: Page) {
  const overflowing =
    await page.evaluate(`[document.documentElement, ...document.querySelectorAll('table, .scroll')]
    .filter((element) => element.scrollWidth > element.clientWidth + 1)
    .map((element) => element.tagName + ' ' + element.scrollWidth + ' > ' + element.clientWidth)`);
  expect(overflowing).toEqual([]);
}

async function shot(page: Page, name: string) {
  mkdirSync(ARTIFACTS, { recursive: true });
  await page.screenshot({ path: join(ARTIFACTS, `${name}.png`), fullPage: true });
}

async function noRawJson(page: Page) {
  const text = (await page.locator('body').innerText()).trim();
  expect(text.startsWith('{') || text.startsWith('[')).toBe(false);
  expect(text).not.toMatch(/"_tag"|"statusCode"/);
}

async function signUp(page: Page, email: string, name: string) {
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Name (optional)').fill(name);
  await page.getByLabel(/^Password/).fill(PASSWORD);
  await page.getByRole('button', { name: 'Create account' }).click();
}

describe('the console in a browser (Debian chromium through playwright-core)', () => {
  let t: TestApp;
  let browser: Browser;
  let alice: BrowserContext;
  let page: Page;
  let problems: string[];
  let org: string;

  beforeAll(async () => {
    t = await createTestApp();
    browser = await launchBrowser();
    alice = await browser.newContext({ viewport: { width: 1200, height: 900 } });
    page = await alice.newPage();
    problems = watch(t, page);
  });
  afterAll(async () => {
    await browser?.close();
    await t.close();
  });

  it('signed out, /console/keys is the sign-in page; sign-up leads back to the keys page', async () => {
    await page.goto(`${t.url}/console/keys`);
    expect(new URL(page.url()).pathname).toBe('/console/login');
    await shot(page, '01-sign-in');
    await page.getByRole('link', { name: 'Create one' }).click();
    await shot(page, '02-sign-up');
    await signUp(page, 'alice@example.com', 'Alice');
    await page.waitForURL(/\/console\/keys$/);
    await page.getByLabel('Workspace').waitFor();
    expect(await page.getByLabel('Workspace').locator('option:checked').textContent()).toBe(
      'Personal (owner)',
    );
  });

  it('creates a workspace from the switcher, adds a service account, and an Inference-only key with an expiry, shown once', async () => {
    await page.getByRole('button', { name: 'New workspace' }).click();
    await page.getByLabel('New workspace name').fill('Acme');
    await page.getByRole('button', { name: 'Create workspace' }).click();
    await page
      .locator('#workspace option:checked', { hasText: 'Acme (owner)' })
      .waitFor({ state: 'attached' });
    await page.getByRole('heading', { name: 'Service accounts' }).waitFor();
    org = new URL(page.url()).searchParams.get('org')!;
    expect(org).toMatch(/^org_/);

    await page.getByLabel('Service account name').fill('builder');
    await page.getByRole('button', { name: 'Add service account' }).click();
    await page.getByRole('region', { name: 'builder' }).waitFor();
    // Renamed in the page.
    await page.getByRole('button', { name: 'Rename builder' }).click();
    await page.getByLabel('New name of builder').fill('ci');
    await page.getByRole('button', { name: 'Save name' }).click();
    await page.getByText('builder is now ci.').waitFor();
    const account = page.getByRole('region', { name: 'ci' });
    await account.getByRole('heading', { name: 'ci' }).waitFor();

    const expiry = new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10);
    await account.getByLabel('Key name').fill('deploy');
    await account.getByLabel('Permission').selectOption({ label: 'Inference only' });
    await account.getByLabel('Expires (optional)').fill(expiry);
    await account.getByRole('button', { name: 'Create key' }).click();
    const shown = page.getByTestId('shown-once');
    await shown.waitFor();
    const key = (await shown.textContent())!.trim();
    expect(key).toMatch(/^oc_sk_/);
    expect(await page.getByRole('region', { name: /deploy/ }).innerText()).toContain(
      'you will not see it again',
    );
    await shot(page, '03-keys-key-shown-once');

    // With the key: how to use it. The base URLs, and snippets that carry the key; what they name answers.
    const usage = page.getByRole('region', { name: /deploy/ }).locator('.key-usage');
    await usage.getByRole('heading', { name: 'Use it' }).waitFor();
    const openaiBase = `${t.url}/inference/openai/v1`;
    expect(await usage.locator('dd').allInnerTexts()).toEqual([openaiBase, `${t.url}/inference/anthropic`]);
    const snippets = await usage.locator('pre').allInnerTexts();
    expect(snippets).toHaveLength(5);
    expect(snippets[0]).toContain(`curl ${openaiBase}/chat/completions`);
    expect(snippets[0]).toContain(`Authorization: Bearer ${key}`);
    expect(snippets[1]).toContain(`export OPENAI_API_KEY=${key}`);
    expect(JSON.parse(snippets[4]).provider.outpost.options).toEqual({
      baseURL: openaiBase,
      apiKey: '{env:OUTPOST_API_KEY}',
    });
    const models = await fetch(`${openaiBase}/models`, { headers: { authorization: `Bearer ${key}` } });
    expect(models.status).toBe(200);
    // Each snippet scrolls sideways, so the keyboard reaches it; copied with its button.
    expect(await usage.locator('pre[tabindex="0"]').count()).toBe(5);
    await alice.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: t.url });
    await usage.getByRole('button', { name: 'Copy curl' }).click();
    await usage.getByText('Copied.').waitFor();
    expect(await page.evaluate('navigator.clipboard.readText()')).toBe(snippets[0]);
    expect(await accessibilityProblems(page)).toEqual([]);
    await shot(page, '03-keys-key-use-it');

    // The row: name, permission, prefix…last4, expiry, status.
    const row = account.getByRole('row', { name: /deploy/ });
    await row.waitFor();
    const cells = await row.innerText();
    expect(cells).toContain('Inference only');
    expect(cells).toContain(expiry);
    expect(cells).toContain(`…${key.slice(-4)}`);
    expect(cells).toContain('active');

    await page.getByRole('button', { name: 'Done' }).click();
    expect(await page.locator('body').innerText()).not.toContain(key);
    await page.reload();
    await page.getByRole('heading', { name: 'Service accounts' }).waitFor();
    await page.getByRole('row', { name: /deploy/ }).waitFor();
    expect(await page.content()).not.toContain(key);

    const config = await t.http.get('/console/api/v2/config').set('authorization', bearer(key));
    expect(config.status).toBe(200);

    // Revoked in the page: the next call with it is a 401.
    await page.getByRole('button', { name: 'Revoke deploy' }).click();
    await page.getByRole('button', { name: 'Yes, revoke' }).click();
    await page.getByRole('row', { name: /deploy.*revoked/ }).waitFor();
    const after = await t.http.get('/console/api/v2/config').set('authorization', bearer(key));
    expect(after.status).toBe(401);
    await shot(page, '04-keys');
    await noRawJson(page);
  });

  it('invites a second person, who accepts in a second browser context; roles show in the UI', async () => {
    await page.getByRole('link', { name: 'Members' }).click();
    await page.waitForURL(/\/console\/members\?org=/);
    await page.getByLabel('Email', { exact: true }).fill('bob@example.com');
    await page.getByLabel('Role', { exact: true }).selectOption('member');
    await page.getByRole('button', { name: 'Invite' }).click();
    const link = (await page.getByTestId('shown-once').textContent())!.trim();
    expect(link).toMatch(/\/console\/invites\//);
    await page.getByRole('row', { name: /bob@example.com/ }).waitFor();
    await shot(page, '05-members-invited');

    const bob = await browser.newContext({ viewport: { width: 390, height: 844 } });
    const bobPage = await bob.newPage();
    const bobProblems = watch(t, bobPage);
    await bobPage.goto(`${t.url}/console/signup`);
    await signUp(bobPage, 'bob@example.com', 'Bob');
    await bobPage.waitForURL(/\/console$/);
    await bobPage.goto(link);
    await bobPage.getByRole('button', { name: 'Accept the invitation' }).click();
    await bobPage.getByText('You joined the workspace.').waitFor();

    // A member sees no admin actions.
    await bobPage.goto(`${t.url}/console/keys?org=${org}`);
    await bobPage.getByText('Only owners and admins of Acme manage service accounts.').waitFor();
    expect(await bobPage.getByRole('button', { name: 'Add service account' }).count()).toBe(0);
    await shot(bobPage, '06-keys-as-member-390px');
    await bobPage.goto(`${t.url}/console/members?org=${org}`);
    await bobPage.getByRole('row', { name: /Alice/ }).waitFor();
    expect(await bobPage.getByRole('button', { name: 'Invite' }).count()).toBe(0);
    expect(await bobPage.getByLabel(/^Role of/).count()).toBe(0);
    await fitsTheScreen(bobPage);
    const leave = await bobPage.getByRole('button', { name: 'Leave' }).boundingBox();
    expect(leave!.x + leave!.width).toBeLessThanOrEqual(390);
    await shot(bobPage, '07-members-as-member-390px');
    expect(bobProblems).toEqual([]);
    await bob.close();

    await page.reload();
    await page.getByRole('row', { name: /Bob/ }).waitFor();
    expect(await page.getByRole('row', { name: /bob@example.com/ }).count()).toBe(1);
  });

  it('a role changes only after a confirmation: an arrow key on the select only asks', async () => {
    const bobRole = page.getByLabel('Role of Bob');
    await bobRole.focus();
    await page.keyboard.press('ArrowUp');
    const confirm = page.getByRole('group', { name: 'Confirm the role of Bob' });
    await confirm.waitFor();
    expect(await confirm.innerText()).toContain('Make Bob an admin?');
    const members = await (await page.request.get(`${t.url}/console/api/orgs/${org}/members`)).json();
    expect(members.find((m: { name: string }) => m.name === 'Bob').role).toBe('member');
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await confirm.waitFor({ state: 'detached' });
    expect(await bobRole.inputValue()).toBe('member');
  });

  it('the last owner cannot be demoted: the API says why, in words', async () => {
    await page.getByLabel('Role of Alice').selectOption('admin');
    await page
      .getByRole('group', { name: 'Confirm the role of Alice' })
      .getByRole('button', { name: 'Change role' })
      .click();
    const alert = page.getByRole('alert');
    await alert.waitFor();
    expect(await alert.innerText()).toMatch(/owner/i);
    await noRawJson(page);
    await shot(page, '08-members-last-owner');
  });

  it("sets a member's budget and sees it in the list", async () => {
    await page.getByRole('link', { name: 'Budgets' }).click();
    await page.getByRole('heading', { name: 'Workspace budget' }).waitFor();
    await page.getByLabel('Monthly limit of Bob').fill('25');
    await page.getByRole('row', { name: /Bob/ }).getByRole('button', { name: 'Set' }).click();
    await page.getByText('Bob may spend $25.00 a month.').waitFor();
    const bobRow = page.getByRole('row', { name: /Bob/ });
    await bobRow.getByText('$25.00', { exact: true }).waitFor();
    await page.getByLabel('Monthly limit of Bob').fill('a lot');
    await bobRow.getByRole('button', { name: 'Set' }).click();
    await bobRow.getByText('Enter an amount in US dollars').waitFor();
    // A third decimal is refused with a sentence, next to the field it is about.
    await page.getByLabel('Monthly limit of Bob').fill('12.345');
    await bobRow.getByRole('button', { name: 'Set' }).click();
    const error = bobRow.getByText(
      'Enter an amount in US dollars with at most two decimals, e.g. 50 or 12.50.',
    );
    await error.waitFor();
    expect(await page.getByLabel('Monthly limit of Bob').getAttribute('aria-describedby')).toBe(
      await error.getAttribute('id'),
    );
    await shot(page, '09-budgets');
    await noRawJson(page);
  });

  it('finds each action in the audit page, filterable by action and actor', async () => {
    await page.getByRole('link', { name: 'Audit log' }).click();
    await page.getByRole('table', { name: 'Audit log' }).waitFor();
    const table = await page.getByRole('table', { name: 'Audit log' }).innerText();
    for (const action of [
      'workspace.created',
      'service_account.created',
      'service_account.renamed',
      'key.created',
      'key.revoked',
      'member.invited',
      'member.joined',
      'budget.member_set',
    ]) {
      expect(table).toContain(action);
    }
    // Each entry says what changed, with names and dollars.
    expect(table).toContain('Set Bob’s budget to $25.00 a month');
    expect(table).toContain('Invited bob@example.com as a member');
    expect(table).not.toMatch(/micro|usr_|sa_[0-9A-Z]/);
    await shot(page, '10-audit');
    // The filter offers every action the console records (device approvals included), and nothing else.
    const offered = await page.getByLabel('Action').locator('option').allTextContents();
    expect(offered.slice(1).sort()).toEqual([...AUDIT_ACTIONS].sort());
    // Filtered by the server: one revocation, by Alice; Bob did one thing, join.
    await page.getByLabel('Action').selectOption('key.revoked');
    await page.getByText('1 entry.', { exact: true }).waitFor();
    const rows = page.getByRole('table', { name: 'Audit log' }).locator('tbody tr');
    expect(await rows.count()).toBe(1);
    expect(await rows.first().innerText()).toContain('Alice');
    await page.getByLabel('Action').selectOption('');
    await page.getByText(/^\d+ entries\.$/).waitFor();
    await page.getByLabel('Actor').selectOption('Bob');
    await page.getByText('1 entry.', { exact: true }).waitFor();
    expect(await rows.first().innerText()).toContain('member.joined');
  });

  it('usage, settings and devices pages render; nothing came from another origin', async () => {
    await page.getByRole('link', { name: 'Usage' }).click();
    await page.getByRole('heading', { name: 'Per day' }).waitFor();
    await shot(page, '11-usage');
    await page.getByRole('link', { name: 'Settings' }).click();
    await page.getByRole('heading', { name: 'Providers and models' }).waitFor();
    await page.getByText('Advanced: policies as JSON').click();
    await page
      .getByLabel('Policies (JSON)')
      .fill('[{"action":"provider.use","effect":"maybe","resource":"*"}]');
    await page.getByRole('button', { name: 'Save policies as JSON' }).click();
    const alert = page.getByRole('region', { name: 'Policies' }).getByRole('alert');
    await alert.waitFor();
    expect(await alert.innerText()).toMatch(/effect/);
    await shot(page, '12-settings');
    await noRawJson(page);
    await page.getByRole('link', { name: 'Devices' }).click();
    await page.getByRole('heading', { name: 'Devices signed in as you' }).waitFor();
    await shot(page, '13-devices');
    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByRole('link', { name: 'Keys' }).click();
    await page.getByRole('heading', { name: 'Service accounts' }).waitFor();
    await fitsTheScreen(page);
    await shot(page, '14-keys-390px');
    expect(problems).toEqual([]);
  });
});

describe('console pages without a browser', () => {
  let t: TestApp;
  beforeAll(async () => (t = await createTestApp()));
  afterAll(() => t.close());

  it('an unknown console page is an HTML page saying so; unknown API routes keep their JSON answer', async () => {
    const res = await t.http.get('/console/no-such-page');
    expect(res.status).toBe(404);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.text).toContain('There is no such page in the console.');
    const api = await t.http.get('/console/api/no-such-route');
    expect(api.headers['content-type']).toMatch(/^application\/json/);
    expect(api.body._tag).toBeDefined();
  });

  it('approving a code no sign-in has (decided, expired or mistyped) is a page saying so, not JSON', async () => {
    const person = await signup(t);
    const pages = pagesOf(t, person);
    const form = await pages.get('/console/device');
    const res = await pages.submit(form, '/console/device', { user_code: 'BCDF-GHJK', action: 'approve' });
    expect(res.status).toBe(404);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.text).toContain('No pending sign-in has this code; check the code on your device');
    expect(res.text).toContain('name="user_code"');
  });

  it('the app pages load the console bundle from this origin', async () => {
    const person = await signup(t);
    const shell = await pagesOf(t, person).get('/console/keys');
    expect(shell.text).toContain('<script type="module" src="/web/console/main.js"></script>');
    const js = await t.http.get('/web/console/main.js');
    expect(js.status).toBe(200);
    expect(js.headers['content-type']).toMatch(/^text\/javascript/);
  });

  it('app pages send a signed-out visitor to the sign-in page, then back', async () => {
    for (const path of ['keys', 'members', 'budgets', 'usage', 'settings', 'audit', 'devices']) {
      const res = await t.http.get(`/console/${path}`);
      expect(res.status).toBe(303);
      expect(res.headers.location).toBe(`/console/login?next=${encodeURIComponent(`/console/${path}`)}`);
    }
  });
});

describe('sign-up closed', () => {
  let t: TestApp;
  beforeAll(async () => (t = await createTestApp({ env: { OUTPOST_CONSOLE_SIGNUP: 'closed' } })));
  afterAll(() => t.close());

  it('the sign-up page says so instead of showing its form', async () => {
    const res = await t.http.get('/console/signup');
    expect(res.status).toBe(200);
    expect(res.text).toContain('Sign-up is closed on this console.');
    expect(res.text).not.toContain('name="password"');
  });
});
