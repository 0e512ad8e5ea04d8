import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Browser } from 'playwright-core';
import { projectDir } from '../../helpers/project-dir';
import { ScriptedModelServer } from '../../helpers/scripted-model-server';
import { basic, createTestApp, TestApp, TEST_PASSWORD } from '../../helpers/test-app';
import { pollUntil, providerConfig } from '../../helpers/prompt';
import { launchBrowser, screenshot, watch } from '../../helpers/browser';

/** A project whose provider is the scripted model and whose edits need an approval. */
function editableProject(server: ScriptedModelServer): string {
  const config = providerConfig(server, { permissions: [{ action: 'edit', resource: '*', effect: 'ask' }] });
  return projectDir({ 'outpost.json': config, 'hello.txt': 'Hello, world\n' });
}

describe('the instance web app at / (Debian chromium through playwright-core)', () => {
  let t: TestApp;
  let server: ScriptedModelServer;
  let browser: Browser;
  let project: string;

  beforeAll(async () => {
    server = await ScriptedModelServer.start();
    t = await createTestApp();
    browser = await launchBrowser();
    project = editableProject(server);
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
    await server?.close();
  });

  it('a pairing link opens the app; a session on a project; an edit approved once; the answer streams; a reload mid-stream keeps the transcript whole', async () => {
    const pairing = await t.http.post('/api/pair').set('authorization', basic());
    expect(pairing.status).toBe(200);

    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const problems = watch(page, t.url);
    await page.goto(pairing.body.url);
    expect(new URL(page.url()).pathname).toBe('/');
    await page.getByRole('heading', { name: 'Sessions' }).waitFor();

    // A new session on the project directory, typed into the location chooser.
    await page.getByRole('button', { name: 'New session' }).click();
    const dialog = page.getByRole('dialog', { name: 'New session' });
    await dialog.getByRole('combobox').selectOption({ label: 'Another directory…' });
    await dialog.getByLabel('Project directory', { exact: true }).fill(project);
    await dialog.getByLabel('Title (optional)').fill('Greeting');
    await dialog.getByRole('button', { name: 'Create session' }).click();
    await page.waitForURL(/#\/session\/ses_/);
    const sessionID = new URL(page.url()).hash.replace('#/session/', '');
    await page.getByRole('heading', { name: 'Greeting' }).waitFor();
    await expect(page.getByTestId('session-state').textContent()).resolves.toBe('Idle');

    // The model asks to edit the file, then answers in pieces and holds the end of its answer back.
    let finish!: () => void;
    const held = new Promise<void>((resolve) => (finish = resolve));
    server.script(
      {
        toolCalls: [
          { name: 'edit', input: { filePath: 'hello.txt', oldString: 'world', newString: 'Outpost' } },
        ],
        usage: { input: 120, output: 12 },
      },
      {
        text: ['The greeting ', 'now says ', 'Outpost.'],
        usage: { input: 200, output: 20 },
        until: held,
      },
    );
    const prompt = page.getByLabel('Prompt');
    await prompt.fill('Greet Outpost instead of the world');
    await prompt.press('Enter');

    // The approval appears with the diff of the edit; nothing is written before it is answered.
    const approval = page.getByRole('article').filter({ hasText: 'wants to change a file' });
    await approval.waitFor();
    await expect(page.getByTestId('session-state').textContent()).resolves.toBe('Waiting for permission');
    await expect(approval.getByRole('listitem').textContent()).resolves.toBe('hello.txt');
    await expect(approval.locator('.diff-removed').textContent()).resolves.toBe('-removed: world');
    await expect(approval.locator('.diff-added').textContent()).resolves.toBe('+added: Outpost');
    expect(readFileSync(join(project, 'hello.txt'), 'utf8')).toBe('Hello, world\n');
    await screenshot(page, 'desktop-approval');

    await approval.getByRole('button', { name: 'Allow once' }).click();
    await pollUntil(
      'the edit on disk',
      async () => readFileSync(join(project, 'hello.txt'), 'utf8') === 'Hello, Outpost\n',
    );
    await approval.waitFor({ state: 'detached' });

    // The answer streams onto the page while the model still holds its end back.
    const answer = page.locator('.message-assistant .markdown', {
      hasText: 'The greeting now says Outpost.',
    });
    await answer.waitFor();
    await expect(page.getByTestId('session-state').textContent()).resolves.toBe('Running');
    const transcript = page.getByRole('list', { name: 'Transcript' });
    expect(await transcript.textContent()).toContain('Greet Outpost instead of the world');

    // A reload in the middle of the stream: everything said so far is back, once.
    await page.reload();
    await page.getByRole('heading', { name: 'Greeting' }).waitFor();
    await answer.waitFor();
    await expect(answer.count()).resolves.toBe(1);
    expect(await transcript.textContent()).toContain('Greet Outpost instead of the world');
    const edit = transcript.locator('.tool', { hasText: 'edit' });
    await expect(edit.locator('.badge').textContent()).resolves.toBe('done');
    await expect(edit.locator('.diff-added').textContent()).resolves.toBe('+added: Outpost');
    await expect(page.getByTestId('session-state').textContent()).resolves.toBe('Running');

    finish();
    await page.getByTestId('session-state').filter({ hasText: 'Idle' }).waitFor();
    await expect(answer.count()).resolves.toBe(1);
    // Cost and tokens of both steps: 320 input and 32 output tokens at 1 and 2 USD per million.
    await page.getByTestId('session-tokens').filter({ hasText: '352' }).waitFor();
    expect(await page.getByTestId('session-cost').textContent()).toBe('$0.0004');
    await screenshot(page, 'desktop-session');

    const stored = await t.http.get(`/api/session/${sessionID}/message`).set('authorization', basic());
    const last = stored.body.data.at(-1);
    expect(last.content).toEqual([{ type: 'text', text: 'The greeting now says Outpost.' }]);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('on a 390 px phone: the password sign-in form, the sessions, a session and the pairing QR code fit the screen', async () => {
    const context = await browser.newContext({
      viewport: { width: 390, height: 844 },
      deviceScaleFactor: 2,
      isMobile: true,
      hasTouch: true,
    });
    const page = await context.newPage();
    const problems = watch(page, t.url);
    await page.goto(t.url);
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await page.getByLabel('Server password').fill('not the password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByText('That is not the server password.').waitFor();
    await page.getByLabel('Server password').fill(TEST_PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Sessions' }).waitFor();
    await page.getByRole('link', { name: /Greeting/ }).waitFor();
    await expectFits(page);
    await screenshot(page, 'phone-sessions');

    await page.getByRole('link', { name: /Greeting/ }).click();
    await page
      .locator('.message-assistant .markdown', { hasText: 'The greeting now says Outpost.' })
      .waitFor();
    await expectFits(page);
    await screenshot(page, 'phone-session');

    await page.getByRole('link', { name: 'Server' }).click();
    await page.getByRole('button', { name: 'Make a pairing link' }).click();
    const link = await page.getByRole('textbox', { name: 'Pairing link' }).inputValue();
    expect(link).toMatch(new RegExp(`^${t.url}/auth/connect/`));
    await page.getByRole('img', { name: 'QR code of the pairing link' }).waitFor();
    await page.getByRole('table', { name: 'Tool calls' }).waitFor();
    await expectFits(page);
    await screenshot(page, 'phone-server');
    expect(problems).toEqual([]);
    await context.close();
  });
});

/** Nothing wider than the viewport: no sideways scrolling on a phone. */
async function expectFits(page: import('playwright-core').Page): Promise<void> {
  const widths = (await page.evaluate('[document.documentElement.scrollWidth, innerWidth]')) as number[];
  expect(widths[0]).toBeLessThanOrEqual(widths[1]);
}
