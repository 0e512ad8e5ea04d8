import { Browser, Page } from 'playwright-core';
import { accessibilityProblems } from '../../helpers/axe';
import { launchBrowser, screenshot } from '../../helpers/browser';
import { projectDir } from '../../helpers/project-dir';
import { ScriptedModelServer } from '../../helpers/scripted-model-server';
import { createTestApp, TestApp } from '../../helpers/test-app';
import { api, Api, pollUntil, providerConfig } from '../../helpers/prompt';
import { DESKTOP, PHONE, signedInPage } from '../../helpers/web-app';

const BACKGROUND = { light: 'rgb(246, 247, 249)', dark: 'rgb(20, 22, 28)' };

describe('every page of the web app, light and dark, passes axe-core (Debian chromium)', () => {
  let t: TestApp;
  let server: ScriptedModelServer;
  let browser: Browser;
  let a: Api;
  let sessionID: string;

  beforeAll(async () => {
    server = await ScriptedModelServer.start();
    t = await createTestApp();
    a = api(t);
    browser = await launchBrowser();
    const config = providerConfig(server, {
      permissions: [{ action: 'edit', resource: '*', effect: 'ask' }],
    });
    const project = projectDir({ 'outpost.json': config, 'hello.txt': 'Hello, world\n' });
    sessionID = await a.createSession(project, { title: 'Greeting' });
    // An answer in Markdown, then an edit waiting for approval: the session page at its fullest.
    server.script(
      {
        text: 'Here is **the plan**:\n\n- change the greeting\n\n```ts\nconst a = 1;\n```\n',
        usage: { input: 5, output: 5 },
      },
      {
        toolCalls: [
          { name: 'edit', input: { filePath: 'hello.txt', oldString: 'world', newString: 'there' } },
        ],
      },
    );
    expect((await a.prompt(sessionID, { text: 'Plan it' })).status).toBe(200);
    await pollUntil('the answer', async () =>
      JSON.stringify(await a.messages(sessionID)).includes('the plan'),
    );
    expect((await a.prompt(sessionID, { text: 'Now change it' })).status).toBe(200);
    await pollUntil('the approval', async () => {
      const pending = await a.get(`/api/session/${sessionID}/permission`);
      return (pending.body.data ?? pending.body).length > 0;
    });
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
    await server?.close();
  });

  async function audit(page: Page, where: string, scheme: 'light' | 'dark'): Promise<string[]> {
    const background = await page.evaluate('getComputedStyle(document.body).backgroundColor');
    expect({ where, background }).toEqual({ where, background: BACKGROUND[scheme] });
    return (await accessibilityProblems(page)).map((problem) => `${where} (${scheme}): ${problem}`);
  }

  for (const scheme of ['light', 'dark'] as const) {
    for (const [size, viewport] of [
      ['desktop', DESKTOP],
      ['phone', PHONE],
    ] as const) {
      it(`${scheme}, ${size}: sign-in, sessions, a session with an answer and an approval, models, server`, async () => {
        const found: string[] = [];
        const signedOut = await browser.newContext({ viewport, colorScheme: scheme });
        const signIn = await signedOut.newPage();
        await signIn.goto(t.url);
        await signIn.getByRole('heading', { name: 'Sign in' }).waitFor();
        found.push(...(await audit(signIn, 'sign-in', scheme)));
        await signedOut.close();

        const { page, context, problems } = await signedInPage(browser, t, viewport);
        await page.emulateMedia({ colorScheme: scheme });
        await page.getByRole('link', { name: /Greeting/ }).waitFor();
        found.push(...(await audit(page, 'sessions', scheme)));

        await page.goto(`${t.url}/#/session/${sessionID}`);
        await page.getByRole('article').filter({ hasText: 'wants to change a file' }).waitFor();
        await page.locator('.markdown strong').first().waitFor();
        found.push(...(await audit(page, 'session', scheme)));
        await screenshot(page, `web-app-session-${scheme}-${size}`, { window: true });

        await page.goto(`${t.url}/#/models`);
        await page.getByRole('heading', { name: 'Models', exact: true }).waitFor();
        await page.getByRole('heading', { name: 'Or sign in to a console' }).waitFor();
        await page.waitForLoadState('networkidle');
        found.push(...(await audit(page, 'models', scheme)));

        await page.goto(`${t.url}/#/server`);
        await page.getByRole('heading', { name: 'Console' }).waitFor();
        found.push(...(await audit(page, 'server', scheme)));
        expect(problems).toEqual([]);
        await context.close();
        expect(found).toEqual([]);
      });
    }
  }
});
