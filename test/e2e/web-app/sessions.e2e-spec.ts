import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Browser, BrowserContext, Page } from 'playwright-core';
import { SseStreams } from '@/modules/events/sse-streams';
import { projectDir } from '../../helpers/project-dir';
import { ScriptedModelServer } from '../../helpers/scripted-model-server';
import { createTestApp, TestApp } from '../../helpers/test-app';
import { api, Api, EventLog, pollUntil, providerConfig } from '../../helpers/prompt';
import { fullInfo, fullMessages, sessionId } from '../session-transfer/fixtures';
import { ARTIFACTS, launchBrowser, screenshot, watch } from '../../helpers/browser';

describe('the web app: working with sessions (list, search, filter, scroll; rename, fork, move, export, delete, import)', () => {
  let t: TestApp;
  let server: ScriptedModelServer;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let problems: string[];
  let a: Api;
  let log: EventLog;
  let here: string;
  let there: string;

  beforeAll(async () => {
    server = await ScriptedModelServer.start();
    t = await createTestApp();
    a = api(t);
    log = new EventLog(t);
    here = projectDir({ 'outpost.json': providerConfig(server) });
    there = projectDir({ 'outpost.json': providerConfig(server) });
    browser = await launchBrowser();
    context = await browser.newContext({ viewport: { width: 1280, height: 800 }, acceptDownloads: true });
    page = await context.newPage();
    problems = watch(page, t.url);
    const pairing = await a.post('/api/pair');
    await page.goto(pairing.body.url);
  });
  afterAll(async () => {
    await context?.close();
    await browser?.close();
    await t?.close();
    await server?.close();
  });

  /** A prompt answered with `answer`, waited for until the session is idle again. */
  async function ask(sessionID: string, text: string, answer: string): Promise<void> {
    const from = log.events.length;
    server.script({ text: answer, usage: { input: 10, output: 5 } });
    expect((await a.prompt(sessionID, { text })).status).toBe(200);
    await log.idle(sessionID, from);
  }

  const rows = () => page.getByRole('list', { name: 'Sessions' }).getByRole('listitem');

  it('lists sessions newest first, more as it scrolls; search, the directory and the project filters narrow it', async () => {
    // The list is open: sessions created elsewhere appear on it as they come.
    await page.getByRole('heading', { name: 'Sessions' }).waitFor();
    for (let i = 1; i <= 34; i++) await a.createSession(here, { title: `Batch ${i}` });
    await a.createSession(there, { title: 'Elsewhere' });
    await pollUntil('the new sessions, live', async () => (await rows().count()) === 35);
    expect(await rows().first().textContent()).toContain('Elsewhere');

    // Loaded afresh: the first page, then the next one when the end of the list comes into view.
    await page.reload();
    await pollUntil('the first page', async () => (await rows().count()) === 30);
    expect(await rows().first().textContent()).toContain('Elsewhere');

    await page.locator('.list-end').scrollIntoViewIfNeeded();
    await pollUntil('the next page on scrolling', async () => (await rows().count()) === 35);
    expect(await rows().last().textContent()).toContain('Batch 1');
    await expect(page.getByRole('button', { name: 'Load more' }).count()).resolves.toBe(0);

    await page.getByLabel('Search').fill('batch 3');
    await pollUntil('the search', async () => (await rows().count()) === 6); // 3, 30..34
    await page.getByLabel('Search').fill('');
    await page.getByLabel('Directory').selectOption(there);
    await pollUntil('the filter', async () => (await rows().count()) === 1);
    expect(await rows().first().textContent()).toContain('Elsewhere');
    await page.getByLabel('Directory').selectOption('');

    // The project filter: the projects of the listed sessions (outside git, each directory is its own project).
    const elsewhere = (await a.get('/api/session').query({ search: 'Elsewhere' })).body.data[0];
    await page.getByLabel('Project').selectOption(elsewhere.projectID);
    await pollUntil('the project filter', async () => (await rows().count()) === 1);
    expect(await rows().first().textContent()).toContain('Elsewhere');
    await page.getByLabel('Project').selectOption('');
    await pollUntil('every project again', async () => (await rows().count()) === 30);
  });

  it('renames, forks before a chosen message, moves, exports and deletes a session with its children', async () => {
    const sessionID = await a.createSession(here, { title: 'Two questions' });
    await ask(sessionID, 'first question', 'First answer.');
    await ask(sessionID, 'second question', 'Second answer.');
    await page.goto(`${t.url}/#/session/${sessionID}`);
    const transcript = page.getByRole('list', { name: 'Transcript' });
    await transcript.getByText('Second answer.').waitFor();

    await page.getByRole('button', { name: 'Rename' }).click();
    await page.getByLabel('Title').fill('Two questions, renamed');
    await page.getByRole('dialog').getByRole('button', { name: 'Rename' }).click();
    await page.getByRole('heading', { name: 'Two questions, renamed' }).waitFor();
    expect((await a.session(sessionID)).title).toBe('Two questions, renamed');

    // Fork before the second question: the copy has the first exchange only.
    const second = transcript.getByRole('listitem').filter({ hasText: 'second question' });
    await second.getByRole('button', { name: 'Fork from here, before this message' }).click();
    await page
      .getByRole('dialog', { name: 'Fork the session' })
      .getByRole('button', { name: 'Fork' })
      .click();
    await page.waitForURL((url) => url.hash.startsWith('#/session/') && !url.hash.endsWith(sessionID));
    const forkID = new URL(page.url()).hash.replace('#/session/', '');
    await transcript.getByText('First answer.').waitFor();
    expect(await transcript.textContent()).not.toContain('second question');
    expect(await a.session(forkID)).toMatchObject({ parentID: sessionID });

    // Move the original to the other project.
    await page.goto(`${t.url}/#/session/${sessionID}`);
    await page.getByRole('heading', { name: 'Two questions, renamed' }).waitFor();
    await page.getByRole('button', { name: 'Move' }).click();
    const move = page.getByRole('dialog', { name: 'Move the session' });
    await move.getByRole('combobox').selectOption(there);
    await move.getByRole('button', { name: 'Move' }).click();
    await page.getByText(there, { exact: true }).waitFor();
    expect((await a.session(sessionID)).location).toEqual({ directory: there });

    // Export: a download of the whole transcript.
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Export' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe(`${sessionID}.json`);
    const exported = JSON.parse(readFileSync((await download.path())!, 'utf8'));
    expect(exported.info.id).toBe(sessionID);
    expect(exported.messages.map((m: { type: string }) => m.type)).toEqual([
      'user',
      'assistant',
      'user',
      'assistant',
      'location-switched',
    ]);

    // Delete: the dialog names the child that goes too, and both are gone.
    await page.getByRole('button', { name: 'Delete' }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete the session?' });
    await confirm.getByText('Its child session is deleted too:').waitFor();
    expect(await confirm.getByRole('listitem').textContent()).toBe('Two questions, renamed (fork)');
    await screenshot(page, 'delete-confirm');
    await confirm.getByRole('button', { name: 'Delete 2 sessions' }).click();
    await page.waitForURL((url) => url.hash === '#/');
    expect((await a.get(`/api/session/${sessionID}`)).status).toBe(404);
    expect((await a.get(`/api/session/${forkID}`)).status).toBe(404);
  });

  it('imports a session from a file and shows every kind of message: reasoning folded, tools with input and output, errors', async () => {
    const id = sessionId();
    const file = join(ARTIFACTS, 'import.json');
    writeFileSync(file, JSON.stringify({ info: fullInfo(id, here), messages: fullMessages() }));
    await page.goto(`${t.url}/#/server`);
    await page.getByLabel('Import a session from a file').setInputFiles(file);
    await page.waitForURL((url) => url.hash === `#/session/${id}`);
    const transcript = page.getByRole('list', { name: 'Transcript' });
    await transcript.getByText('Here is the file').waitFor();

    const reasoning = transcript.locator('details.reasoning');
    expect(await reasoning.getAttribute('open')).toBeNull();
    await reasoning.locator('summary').click();
    await reasoning.getByText('I should read it').waitFor();
    const read = transcript.locator('.tool', { hasText: 'read' }).first();
    expect(await read.locator('.tool-target').textContent()).toBe('/home/me/secret.txt');
    await read.getByText('Output').click();
    await read.getByText('secret contents').waitFor();
    const bash = transcript.locator('.tool-error');
    expect(await bash.locator('.command').textContent()).toBe('$ rm -rf /');
    expect(await bash.getByRole('alert').textContent()).toBe('rm -rf / was denied');
    expect(await transcript.textContent()).toContain('Agent switched to plan');
    await screenshot(page, 'imported-session');
    expect(problems).toEqual([]);
  });

  it('the prompt box: Shift+Enter is a new line, Enter sends; agent and model choosers switch; Stop interrupts', async () => {
    const sessionID = await a.createSession(here, { title: 'Controls' });
    await page.goto(`${t.url}/#/session/${sessionID}`);
    await page.getByRole('heading', { name: 'Controls' }).waitFor();

    await page.getByLabel('Model').selectOption({ label: 'Large (scripted)' });
    await pollUntil('the model switch', async () => (await a.session(sessionID)).model?.id === 'large');
    await page.getByLabel('Agent').selectOption({ label: 'Plan' });
    await pollUntil('the agent switch', async () => (await a.session(sessionID)).agent === 'plan');

    const from = log.events.length;
    server.script({ text: 'Thinking out loud', hold: true });
    const prompt = page.getByLabel('Prompt');
    await prompt.click();
    await page.keyboard.type('line one');
    await page.keyboard.press('Shift+Enter');
    await page.keyboard.type('line two');
    expect(await prompt.inputValue()).toBe('line one\nline two');
    expect(log.of(sessionID, ['session.inbox.enqueued'])).toHaveLength(0);
    await page.keyboard.press('Enter');
    await page.getByRole('list', { name: 'Transcript' }).getByText('Thinking out loud').waitFor();
    expect(await prompt.inputValue()).toBe('');
    const user = (await a.messages(sessionID)).find((m) => m.type === 'user');
    expect(user?.text).toBe('line one\nline two');
    expect(server.requests.at(-1)!.body.model).toBe('large');
    await expect(page.getByTestId('session-state').textContent()).resolves.toBe('Running');

    await page.getByRole('button', { name: 'Stop' }).click();
    await log.idle(sessionID, from);
    await page.getByTestId('session-state').filter({ hasText: 'Idle' }).waitFor();
    expect((await a.session(sessionID)).outcome).toBe('interrupted');
    await expect(page.getByRole('button', { name: 'Stop' }).count()).resolves.toBe(0);
  });

  it('works from the keyboard alone: a new session, its title, a prompt sent with Enter, an approval answered', async () => {
    /** Presses Tab until the focused element is the one `label` names (its text or aria-label). */
    const tabTo = async (label: string) => {
      for (let i = 0; i < 60; i++) {
        await page.keyboard.press('Tab');
        const focused = (await page.evaluate(
          "document.activeElement?.getAttribute('aria-label') || document.activeElement?.textContent?.trim() || document.activeElement?.id",
        )) as string;
        if (focused === label) return;
      }
      throw new Error(`${label} cannot be reached with Tab`);
    };
    const project = projectDir({
      'outpost.json': providerConfig(server, {
        permissions: [{ action: 'bash', resource: '*', effect: 'ask' }],
      }),
    });
    await page.goto(`${t.url}/#/server`);
    await page.goto(`${t.url}/#/`);
    await page.getByRole('heading', { name: 'Sessions' }).waitFor();
    await tabTo('New session');
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'New session' });
    await dialog.waitFor();
    await dialog.getByRole('combobox').focus();
    await dialog.getByRole('combobox').selectOption({ label: 'Another directory…' });
    await page.keyboard.press('Tab');
    await page.keyboard.type(project);
    await page.keyboard.press('Tab');
    await page.keyboard.type('By keyboard');
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'By keyboard' }).waitFor();

    server.script({ toolCalls: [{ name: 'bash', input: { command: 'echo typed' } }] }, { text: 'Ran it.' });
    await tabTo('prompt'); // the textarea's id (its label is for screen readers)
    await page.keyboard.type('run echo');
    await page.keyboard.press('Enter');
    await page.getByRole('article').filter({ hasText: 'wants to run a command' }).waitFor();
    await tabTo('Allow once');
    await page.keyboard.press('Enter');
    await page.getByRole('list', { name: 'Transcript' }).getByText('Ran it.').waitFor();
  });

  it('a session without a title yet shows "New session" and when it began, not the placeholder\'s ISO time', async () => {
    const sessionID = await a.createSession(here);
    const stored = (await a.session(sessionID)).title as string;
    expect(stored).toMatch(/^New session - \d{4}-\d\d-\d\dT/);
    await page.goto(`${t.url}/#/session/${sessionID}`);
    const heading = page.getByRole('heading', { level: 1 });
    await expect(heading.textContent()).resolves.toMatch(/^New session · /);
    expect(await heading.textContent()).not.toMatch(/\d{4}-\d\d-\d\dT/);
    expect(await page.title()).toMatch(/^New session · .+ · Outpost$/);
    await expect(page.locator('body').textContent()).resolves.not.toContain(stored);
  });

  it('after a gap in the event stream the page reconnects by itself and catches up with what it missed', async () => {
    const sessionID = await a.createSession(here, { title: 'Gap' });
    await page.goto(`${t.url}/#/session/${sessionID}`);
    await page.getByRole('heading', { name: 'Gap' }).waitFor();
    await page.getByRole('status').filter({ hasText: 'Live' }).waitFor();

    // The server drops every stream (what it does on shutdown); the session runs while the page is away.
    t.app.get(SseStreams).onModuleDestroy();
    await ask(sessionID, 'asked while the page was away', 'Answered while away.');

    const transcript = page.getByRole('list', { name: 'Transcript' });
    await transcript.getByText('Answered while away.').waitFor({ timeout: 20_000 });
    expect(await transcript.textContent()).toContain('asked while the page was away');
    await page.getByRole('status').filter({ hasText: 'Live' }).waitFor();
    expect(problems).toEqual([]);
  });

  it('a session created after the list loaded but before the event stream was up still shows: the list is fetched again on connecting', async () => {
    const late = await context.newPage();
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await late.route('**/api/event', async (route) => {
      await held;
      await route.continue();
    });
    await late.goto(t.url);
    await late.locator('ul[aria-label="Sessions"][aria-busy="false"]').waitFor({ state: 'attached' });
    await a.createSession(here, { title: 'Made before the stream' });
    release();
    await late.getByText('Made before the stream').waitFor({ timeout: 20_000 });
    await late.close();
  });

  it('a session created while the list is loading stays on it when the older page arrives', async () => {
    const slow = await context.newPage();
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let fetched = 0;
    // Every list request is answered from the server at once, but handed to the page only when released.
    await slow.route('**/api/session?*', async (route) => {
      const response = await route.fetch();
      fetched++;
      await held;
      await route.fulfill({ response });
    });
    await slow.goto(t.url);
    await slow.getByRole('status').filter({ hasText: 'Live' }).waitFor();
    await pollUntil('both list requests answered by the server', async () => fetched >= 2);
    await a.createSession(here, { title: 'Made while the list loads' });
    const made = slow.getByText('Made while the list loads');
    await made.waitFor();
    release();
    await slow.locator('ul[aria-label="Sessions"][aria-busy="false"]').waitFor({ state: 'attached' });
    expect(await made.count()).toBe(1);
    await slow.close();
  });

  it('a session that went idle while its page was loading shows idle, not the running state the older answer had', async () => {
    const sessionID = await a.createSession(here, { title: 'Stopped while loading' });
    const from = log.events.length;
    server.script({ text: 'Still going', hold: true });
    expect((await a.prompt(sessionID, { text: 'go' })).status).toBe(200);
    await pollUntil('the run', async () => log.of(sessionID, ['session.execution.started']).length > 0);

    const slow = await context.newPage();
    // What the page's event stream delivered, in order, read below instead of guessing when it arrived.
    await slow.addInitScript(`
      window.outpostEventsSeen = [];
      window.EventSource = class extends window.EventSource {
        constructor(url, init) {
          super(url, init);
          this.addEventListener('message', (message) => window.outpostEventsSeen.push(JSON.parse(message.data)));
        }
      };
    `);
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let fetched = 0;
    await slow.route('**/api/session/active', async (route) => {
      const response = await route.fetch();
      fetched++;
      await held;
      await route.fulfill({ response });
    });
    await slow.goto(`${t.url}/#/session/${sessionID}`);
    await slow.getByRole('status').filter({ hasText: 'Live' }).waitFor();
    await pollUntil('both loads answered by the server', async () => fetched >= 2);
    expect((await a.post(`/api/session/${sessionID}/interrupt`)).status).toBeLessThan(300);
    await log.idle(sessionID, from);
    // Once the page's stream has delivered the idle event, the answers fetched while the session was running are
    // let through.
    await slow.waitForFunction(
      `window.outpostEventsSeen.some((e) => e.type === 'session.idle' && e.data?.sessionID === ${JSON.stringify(sessionID)})`,
    );
    release();
    await slow.getByRole('heading', { name: 'Stopped while loading' }).waitFor();
    await expect(slow.getByTestId('session-state').textContent()).resolves.toBe('Idle');
    await slow.close();
  });
});
