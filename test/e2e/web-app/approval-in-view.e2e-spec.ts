import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Browser, Locator, Page } from 'playwright-core';
import { launchBrowser, screenshot } from '../../helpers/browser';
import { projectDir } from '../../helpers/project-dir';
import { ScriptedModelServer } from '../../helpers/scripted-model-server';
import { createTestApp, TestApp } from '../../helpers/test-app';
import { api, Api, pollUntil, providerConfig } from '../../helpers/prompt';
import { DESKTOP, hasFocus, PHONE, signedInPage } from '../../helpers/web-app';

/** An answer long enough to fill several screens. */
const LONG_ANSWER = Array.from({ length: 80 }, (_, i) => `Line ${i + 1} of a long answer.`).join('\n\n');

/** Whether the element is wholly inside the window and is what a click at its centre would hit. */
async function reachable(page: Page, target: Locator): Promise<boolean> {
  const box = await target.boundingBox();
  const viewport = page.viewportSize()!;
  if (!box || box.y < 0 || box.y + box.height > viewport.height) return false;
  return target.evaluate(
    (element, [x, y]) => {
      const hit = element.ownerDocument.elementFromPoint(x, y);
      return hit !== null && element.contains(hit);
    },
    [box.x + box.width / 2, box.y + box.height / 2],
  );
}

describe('a waiting approval stays on screen (Debian chromium through playwright-core)', () => {
  let t: TestApp;
  let server: ScriptedModelServer;
  let browser: Browser;
  let a: Api;
  let project: string;

  beforeAll(async () => {
    server = await ScriptedModelServer.start();
    t = await createTestApp();
    a = api(t);
    browser = await launchBrowser();
    const config = providerConfig(server, {
      permissions: [{ action: 'edit', resource: '*', effect: 'ask' }],
    });
    project = projectDir({
      'outpost.json': config,
      'hello.txt': 'Hello, world\n',
      'big.txt': Array.from({ length: 120 }, (_, i) => `line ${i + 1}`).join('\n'),
    });
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
    await server?.close();
  });

  /** A session with a long answer in it, opened in a signed-in page of the given width. */
  async function longSession(width: number, height: number) {
    const sessionID = await a.createSession(project, { title: `Long at ${width}` });
    server.script({ text: LONG_ANSWER, usage: { input: 10, output: 10 } });
    expect((await a.prompt(sessionID, { text: 'Say a lot' })).status).toBe(200);
    await pollUntil('the long answer', async () => {
      const last = (await a.messages(sessionID)).at(-1);
      return last?.type === 'assistant' && last.time.completed !== undefined;
    });
    const { page, context, problems } = await signedInPage(browser, t, { width, height });
    await page.goto(`${t.url}/#/session/${sessionID}`);
    await page.getByText('Line 80 of a long answer.').waitFor();
    return { page, context, problems, sessionID };
  }

  /** Asks for an edit (needing approval) from the prompt box, with the keyboard. */
  async function askForEdit(page: Page): Promise<Locator> {
    server.script(
      {
        toolCalls: [
          { name: 'edit', input: { filePath: 'hello.txt', oldString: 'world', newString: 'there' } },
        ],
      },
      { text: 'Done.' },
    );
    await page.getByLabel('Prompt').fill('Change the greeting');
    await page.getByLabel('Prompt').press('Enter');
    const approval = page.getByRole('article').filter({ hasText: 'wants to change a file' });
    await approval.waitFor();
    return approval;
  }

  it('at 1280 × 800: the Allow button of an approval after a long transcript is inside the window and not under the prompt box; scrolling up offers "Jump to latest", which brings it back and focuses it', async () => {
    const { page, context, problems, sessionID } = await longSession(DESKTOP.width, DESKTOP.height);
    const approval = await askForEdit(page);
    const allow = approval.getByRole('button', { name: 'Allow once' });
    await pollUntil('the Allow button on screen', () => reachable(page, allow));
    await expect(page.getByRole('button', { name: /Jump to latest/ }).count()).resolves.toBe(0);
    await screenshot(page, 'approval-in-view-desktop', { window: true });

    // The reader scrolls up: the page stops following and offers the way back.
    await page.mouse.move(640, 300);
    await page.mouse.wheel(0, -1500);
    const jump = page.getByRole('button', { name: /An approval is waiting · Jump to latest/ });
    await jump.waitFor();
    expect(await reachable(page, allow)).toBe(false);
    await screenshot(page, 'approval-jump-desktop', { window: true });
    await jump.click();
    await pollUntil('the Allow button back on screen', () => reachable(page, allow));
    await jump.waitFor({ state: 'detached' });
    expect(await hasFocus(approval)).toBe(true);

    await allow.click();
    await pollUntil('the edit on disk', async () =>
      readFileSync(join(project, 'hello.txt'), 'utf8').includes('there'),
    );
    await page.getByText('Done.', { exact: true }).waitFor();
    // Still following: the answer after the approval is on screen too.
    expect(await reachable(page, page.getByText('Done.', { exact: true }))).toBe(true);
    expect(problems).toEqual([]);
    await context.close();
    expect((await a.session(sessionID)).id).toBe(sessionID);
  });

  it('at 390 px on a phone, keyboard only: the approval is on screen, Deny… opens the reason field with the focus in it, Enter sends the reason', async () => {
    const { page, context, problems, sessionID } = await longSession(PHONE.width, PHONE.height);
    const approval = await askForEdit(page);
    const deny = approval.getByRole('button', { name: 'Deny…' });
    await pollUntil('the Deny button on screen', () => reachable(page, deny));
    await pollUntil('the Allow button on screen', () =>
      reachable(page, approval.getByRole('button', { name: 'Allow once' })),
    );
    await screenshot(page, 'approval-in-view-phone', { window: true });
    const before = readFileSync(join(project, 'hello.txt'), 'utf8');

    // Keyboard only: Tab to Deny… from Allow always, Enter; the reason field takes the focus.
    await approval.getByRole('button', { name: 'Allow always' }).focus();
    await page.keyboard.press('Tab');
    expect(await hasFocus(deny)).toBe(true);
    await page.keyboard.press('Enter');
    const reason = approval.getByLabel('Why not? (the agent reads this)');
    await reason.waitFor();
    expect(await hasFocus(reason)).toBe(true);
    await page.keyboard.type('Keep the world');
    await page.keyboard.press('Enter');
    await approval.waitFor({ state: 'detached' });
    await pollUntil('the denial in the transcript', async () => {
      const tool = (await a.messages(sessionID))
        .flatMap((m) => (m.type === 'assistant' ? m.content : []))
        .find((part: { type: string }) => part.type === 'tool');
      return tool?.state.status === 'error' && JSON.stringify(tool.state.error).includes('Keep the world');
    });
    expect(readFileSync(join(project, 'hello.txt'), 'utf8')).toBe(before);
    expect(problems).toEqual([]);
    await context.close();
  });

  it("opening a fold near the bottom (a tool's output) keeps the reader's place instead of jumping to the end", async () => {
    const { page, context, problems, sessionID } = await longSession(DESKTOP.width, DESKTOP.height);
    server.script({ toolCalls: [{ name: 'read', input: { filePath: 'big.txt' } }] }, { text: 'Read it.' });
    expect((await a.prompt(sessionID, { text: 'Read big.txt' })).status).toBe(200);
    await page.getByText('Read it.', { exact: true }).waitFor();
    const summary = page.locator('.tool-output summary').last();
    await pollUntil('the fold on screen', () => reachable(page, summary));
    const before = (await summary.boundingBox())!.y;
    await summary.click();
    await page.locator('.tool-output[open]').last().waitFor();
    await page.waitForTimeout(400);
    expect(Math.abs((await summary.boundingBox())!.y - before)).toBeLessThan(3);
    // The end is out of sight now: the way back is offered.
    await page.getByRole('button', { name: 'Jump to latest ↓' }).waitFor();
    expect(problems).toEqual([]);
    await context.close();
  });
});
