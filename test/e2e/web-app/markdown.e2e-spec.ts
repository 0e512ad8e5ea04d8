import { Browser } from 'playwright-core';
import { launchBrowser, screenshot } from '../../helpers/browser';
import { projectDir } from '../../helpers/project-dir';
import { ScriptedModelServer } from '../../helpers/scripted-model-server';
import { createTestApp, TestApp } from '../../helpers/test-app';
import { api, Api, pollUntil, providerConfig } from '../../helpers/prompt';
import { DESKTOP, fitsWidth, hasFocus, PHONE, signedInPage } from '../../helpers/web-app';

const ANSWER = [
  'Here is **the plan**:',
  '',
  '- read the file',
  '- change the greeting',
  '',
  '```ts',
  "const greeting: string = 'hello';",
  '```',
  '',
  // What a model may write (or be tricked into writing): none of it may run.
  '<script>window.injected = "script"</script>',
  '',
  'An image: <img src="/no-such-image.png" onerror="window.injected = \'onerror\'">',
  '',
  '[a link](javascript:window.injected=1)',
].join('\n');

describe('answers rendered from Markdown, safely (Debian chromium through playwright-core)', () => {
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
    const project = projectDir({ 'outpost.json': providerConfig(server), 'hello.txt': 'Hello, world\n' });
    sessionID = await a.createSession(project, { title: 'Markdown' });
    server.script(
      { toolCalls: [{ name: 'read', input: { filePath: 'hello.txt' } }] },
      { text: ANSWER, usage: { input: 10, output: 10 } },
    );
    expect((await a.prompt(sessionID, { text: 'Plan it' })).status).toBe(200);
    await pollUntil('the answer', async () => {
      const last = (await a.messages(sessionID)).at(-1);
      return last?.type === 'assistant' && last.time.completed !== undefined && last.content.length > 0;
    });
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
    await server?.close();
  });

  it.each([
    ['desktop', DESKTOP],
    ['phone', PHONE],
  ])(
    'on a %s: bold, a list and a highlighted code block are rendered; the script, the onerror handler and the javascript: link do nothing; tool output is monospace',
    async (name, viewport) => {
      const { page, context, problems } = await signedInPage(browser, t, viewport);
      await page.goto(`${t.url}/#/session/${sessionID}`);
      const answer = page.locator('.message-assistant .markdown', { hasText: 'Here is' });
      await answer.waitFor();

      await expect(answer.locator('strong').textContent()).resolves.toBe('the plan');
      await expect(answer.getByRole('listitem').allTextContents()).resolves.toEqual([
        'read the file',
        'change the greeting',
      ]);
      const code = answer.locator('pre code');
      await expect(code.textContent()).resolves.toBe("const greeting: string = 'hello';");
      await expect(code.locator('.hljs-keyword').first().textContent()).resolves.toBe('const');
      await expect(code.locator('.hljs-string').textContent()).resolves.toBe("'hello'");

      // Raw HTML is shown as text, and the javascript: URL is gone: nothing of it runs, even when clicked.
      await expect(answer.locator('script, img, [onerror]').count()).resolves.toBe(0);
      await answer.getByText('<script>window.injected = "script"</script>').waitFor();
      await answer
        .getByText(`<img src="/no-such-image.png" onerror="window.injected = 'onerror'">`)
        .waitFor();
      const link = answer.getByText('a link');
      expect((await link.getAttribute('href')) ?? '').not.toMatch(/^javascript:/i);
      await link.click();
      expect(await page.evaluate('window.injected')).toBeUndefined();

      // The read tool's output is shown as it is, in a monospace font.
      const output = page.locator('.tool-output pre').first();
      await output.waitFor({ state: 'attached' });
      expect(
        await output.evaluate(
          (element) => element.ownerDocument.defaultView!.getComputedStyle(element).fontFamily,
        ),
      ).toMatch(/monospace/);

      expect(await fitsWidth(page)).toBe(true);
      await screenshot(page, `markdown-${name}`);
      // No Content-Security-Policy refusal either: nothing even tried to run.
      expect(problems).toEqual([]);
      await context.close();
    },
  );

  it('the Copy button of a code block copies the code, by keyboard too', async () => {
    const { page, context, problems } = await signedInPage(browser, t, DESKTOP);
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: t.url });
    await page.goto(`${t.url}/#/session/${sessionID}`);
    const copy = page.locator('.message-assistant').getByRole('button', { name: 'Copy' });
    await copy.waitFor();
    await copy.focus();
    expect(await hasFocus(copy)).toBe(true);
    await page.keyboard.press('Enter');
    await page.locator('.message-assistant').getByRole('button', { name: 'Copied' }).waitFor();
    expect(await page.evaluate('navigator.clipboard.readText()')).toBe("const greeting: string = 'hello';");
    expect(problems).toEqual([]);
    await context.close();
  });
});
