import { Browser, Page } from 'playwright-core';
import { accessibilityProblems } from '../../helpers/axe';
import { launchBrowser, screenshot } from '../../helpers/browser';
import { MCP_TEST_LOCAL } from '../../helpers/mcp-server';
import { OAuthMcp, startOAuthMcp } from '../../helpers/mcp-oauth-server';
import { RemoteMcp, startRemoteMcp } from '../../helpers/mcp-remote';
import { projectDir } from '../../helpers/project-dir';
import { basic, createTestApp, TestApp } from '../../helpers/test-app';
import { DESKTOP, fitsWidth, PHONE, signedInPage } from '../../helpers/web-app';

/**
 * The web app's MCP page (Debian chromium): each server of the location with its status (connected, failed with its
 * reason, disabled, needs sign-in), connect and disconnect, and the OAuth sign-in finished with the pasted address.
 */
describe('the MCP page of the web app', () => {
  let t: TestApp;
  let browser: Browser;
  let remote: RemoteMcp;
  let oauth: OAuthMcp;
  let project: string;

  beforeAll(async () => {
    remote = await startRemoteMcp(['x-team', 'blue']);
    oauth = await startOAuthMcp();
    const mcp = {
      docs: { type: 'remote', url: remote.url, headers: { 'x-team': 'blue' } },
      tools: { ...MCP_TEST_LOCAL, enabled: false },
      broken: { type: 'local', command: ['outpost-no-such-command-for-mcp'] },
      secure: { type: 'remote', url: oauth.url },
    };
    project = projectDir({ 'opencode.json': JSON.stringify({ mcp }) });
    t = await createTestApp({
      env: { OUTPOST_DEFAULT_DIRECTORY: project, OUTPOST_CONNECTIONS_ALLOW: '127.0.0.1' },
    });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
    await remote?.close();
    await oauth?.close();
  });

  const statusOf = async (name: string) =>
    (await t.http.get(`/mcp?directory=${encodeURIComponent(project)}`).set('authorization', basic())).body[
      name
    ];

  async function openMcp(page: Page) {
    await page.goto(`${t.url}/#/mcp`);
    await page.getByRole('heading', { name: 'MCP servers', exact: true }).waitFor();
    await page.getByTestId('mcp-status-docs').waitFor();
  }
  const badge = (page: Page, name: string) => page.getByTestId(`mcp-status-${name}`);

  it('lists every server with its status; disconnects and connects one; signs in to one with OAuth', async () => {
    const { page, context, problems } = await signedInPage(browser, t, DESKTOP);
    await openMcp(page);
    expect(await badge(page, 'docs').innerText()).toBe('Connected');
    expect(await badge(page, 'tools').innerText()).toBe('Disabled');
    expect(await badge(page, 'broken').innerText()).toBe('Failed');
    await page.getByText('command not found: outpost-no-such-command-for-mcp').waitFor();
    expect(await badge(page, 'secure').innerText()).toBe('Needs sign-in');
    expect(await accessibilityProblems(page)).toEqual([]);

    await page.getByRole('button', { name: 'Disconnect docs' }).click();
    await page.getByRole('button', { name: 'Connect docs' }).waitFor();
    expect((await statusOf('docs')).status).not.toBe('connected');
    await page.getByRole('button', { name: 'Connect docs' }).click();
    await page.getByRole('button', { name: 'Disconnect docs' }).waitFor();
    expect(await statusOf('docs')).toEqual({ status: 'connected' });

    await page.getByRole('button', { name: 'Connect tools' }).click();
    await page.getByRole('button', { name: 'Disconnect tools' }).waitFor();
    expect(await statusOf('tools')).toEqual({ status: 'connected' });

    // Sign in: the server's page opens in a tab; it sends the browser back to the redirect address with the code,
    // which the person pastes into the form.
    const opened = context.waitForEvent('page');
    await page.getByRole('button', { name: 'Sign in to secure' }).click();
    const tab = await opened;
    const back = await tab.waitForRequest((request) => request.url().includes('/mcp/oauth/callback'));
    await tab.close();
    const form = page.getByRole('form', { name: 'Sign in to secure' });
    await form.getByLabel('Address or code').fill(back.url());
    await form.getByRole('button', { name: 'Finish signing in' }).click();
    await page.getByRole('button', { name: 'Disconnect secure' }).waitFor();
    expect(await badge(page, 'secure').innerText()).toBe('Connected');
    expect(await statusOf('secure')).toEqual({ status: 'connected' });
    expect(problems).toEqual([]);
    await context.close();
  });

  it.each([
    ['light', DESKTOP],
    ['dark', DESKTOP],
    ['light', PHONE],
    ['dark', PHONE],
  ] as const)('%s at %o: axe finds nothing and the page fits (screenshot)', async (scheme, viewport) => {
    const { page, context, problems } = await signedInPage(browser, t, viewport);
    await page.emulateMedia({ colorScheme: scheme });
    await openMcp(page);
    expect(await accessibilityProblems(page)).toEqual([]);
    expect(await fitsWidth(page)).toBe(true);
    await screenshot(page, `web-app-mcp-${scheme}-${viewport.width}`);
    expect(problems).toEqual([]);
    await context.close();
  });
});
