import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { Browser, Page } from 'playwright-core';
import { accessibilityProblems } from '../../helpers/axe';
import { launchBrowser, watch } from '../../helpers/browser';
import { Person, signup } from '../../helpers/console';
import { createTestApp, TestApp } from '../../helpers/test-app';

const ARTIFACTS = join(__dirname, '..', '..', 'artifacts', 'console-search-mcp');

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/**
 * The console's settings (Debian chromium): search providers added, chosen for web search and removed in forms, and
 * the console's MCP server with its URL and an opencode.json snippet; axe-clean at 1280 and 390 px, light and dark.
 */
describe('console settings: search providers and the console MCP server', () => {
  let t: TestApp;
  let browser: Browser;
  let owner: Person;

  beforeAll(async () => {
    t = await createTestApp({ env: { OUTPOST_SECRET_KEY: 'search-mcp-browser-secret-0123456789' } });
    owner = await signup(t, 'owner@example.com');
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  const stored = async () =>
    (await owner.get('/console/api/v2/config').set('x-org-id', owner.org)).body as Json;
  const listed = async () =>
    (await owner.get(`/console/api/orgs/${owner.org}/search-providers`)).body as Array<{
      id: string;
      name: string;
    }>;

  async function settings(scheme: 'light' | 'dark', width: number) {
    const context = await browser.newContext({
      viewport: { width, height: 900 },
      colorScheme: scheme,
      ...(width < 600 ? { isMobile: true, hasTouch: true, deviceScaleFactor: 2 } : {}),
    });
    const [name, value] = owner.cookie.split('=');
    await context.addCookies([{ name, value, url: t.url }]);
    const page = await context.newPage();
    const problems = watch(page, t.url);
    await page.goto(`${t.url}/console/settings?org=${owner.org}`);
    await page.getByRole('heading', { name: 'Search providers' }).waitFor();
    return { context, page, problems };
  }

  const shot = async (page: Page, name: string) => {
    mkdirSync(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: join(ARTIFACTS, `${name}.png`), fullPage: true });
  };

  it('adds a search provider (errors next to their field), offers it for web search, removes another', async () => {
    const { context, page, problems } = await settings('light', 1280);
    const section = page.getByRole('region', { name: 'Search providers' });
    await section.getByText('No search provider yet.').waitFor();
    await section.getByRole('button', { name: 'Add a search provider' }).click();
    const form = page.getByRole('form', { name: 'Add a search provider' });
    await form.getByLabel('API', { exact: true }).selectOption('searxng');
    await form.getByLabel('Name (optional)').fill('Team SearXNG');
    await form.getByLabel('$ per 1,000 searches').fill('-1');
    await form.getByRole('button', { name: 'Add search provider' }).click();
    await form.getByText('The price is dollars per 1,000 searches, e.g. 5.').waitFor();
    await form.getByLabel('$ per 1,000 searches').fill('5');
    await form.getByRole('button', { name: 'Add search provider' }).click();
    // The server's refusal, in words, under the field it names: SearXNG is self-hosted and needs its address.
    const baseError = form.locator('#search-base_url-error');
    await baseError.waitFor();
    expect(await baseError.innerText()).toBe('SearXNG is self-hosted: give its address.');
    await form.getByLabel('Base URL').fill('https://searx.example.com');
    await form.getByRole('button', { name: 'Add search provider' }).click();
    await page.getByText('Team SearXNG was added.', { exact: false }).waitFor();
    const [added] = await listed();
    expect(added).toMatchObject({ name: 'Team SearXNG', kind: 'searxng', price_per_1000: 5 });
    await section.getByRole('row', { name: /Team SearXNG/ }).waitFor();

    // Chosen under Web search, by its name: the config names its id.
    await page.getByLabel('Web search for members').selectOption({ label: 'Through Team SearXNG' });
    await page.getByRole('button', { name: 'Save web search' }).click();
    await page.getByText('Saved.').first().waitFor();
    expect((await stored()).websearch).toEqual({ providerID: added.id });

    // A second one, with a key, then removed.
    await section.getByRole('button', { name: 'Add a search provider' }).click();
    await form.getByLabel('API', { exact: true }).selectOption('brave');
    await form.getByLabel('API key (write-only)').fill('BSA-test-key-0123456789');
    await form.getByRole('button', { name: 'Add search provider' }).click();
    await section
      .getByRole('row', { name: /Brave Search/ })
      .getByText('…6789')
      .waitFor();
    await section.getByRole('button', { name: 'Remove search provider brave' }).click();
    await section.getByRole('button', { name: 'Yes, remove' }).click();
    await page.getByText('brave was removed.').waitFor();
    expect((await listed()).map((provider) => provider.name)).toEqual(['Team SearXNG']);
    expect(await accessibilityProblems(page)).toEqual([]);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('shows the console MCP server: its URL and a copyable opencode.json snippet, apart from the admins’ servers', async () => {
    const { context, page, problems } = await settings('light', 1280);
    const panel = page.getByRole('region', { name: "The console's MCP server" });
    expect(await panel.getByTestId('console-mcp-url').innerText()).toBe(`${t.url}/console/mcp`);
    const snippet = JSON.parse(await panel.getByTestId('console-mcp-snippet').innerText());
    expect(snippet.mcp.outpost).toEqual({
      type: 'remote',
      url: `${t.url}/console/mcp`,
      oauth: false,
      headers: { Authorization: 'Bearer {env:OUTPOST_API_KEY}' },
    });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: t.url });
    await panel.getByRole('button', { name: 'Copy snippet' }).click();
    await panel.getByRole('status').getByText('Copied.').waitFor();
    // The admins' MCP form does not offer the console's own server as theirs to edit.
    const mcpForm = page.getByRole('region', { name: 'MCP servers' });
    expect(await mcpForm.getByText('/console/mcp').count()).toBe(0);
    expect(problems).toEqual([]);
    await context.close();
  });

  it.each([
    ['light', 1280],
    ['dark', 1280],
    ['light', 390],
    ['dark', 390],
  ] as const)(
    '%s at %i px: axe finds nothing and the page fits the window (screenshot)',
    async (scheme, width) => {
      const { context, page, problems } = await settings(scheme, width);
      await page.getByRole('region', { name: "The console's MCP server" }).waitFor();
      expect(await accessibilityProblems(page)).toEqual([]);
      expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(width);
      await shot(page, `settings-search-mcp-${scheme}-${width}`);
      expect(problems).toEqual([]);
      await context.close();
    },
  );
});
