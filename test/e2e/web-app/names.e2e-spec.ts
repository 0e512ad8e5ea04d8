import { Browser, Page } from 'playwright-core';
import { accessibilityProblems } from '../../helpers/axe';
import { launchBrowser, screenshot } from '../../helpers/browser';
import { Person, signup } from '../../helpers/console';
import { approve } from '../../helpers/device';
import { projectDir } from '../../helpers/project-dir';
import { api, Api, EventLog, pollUntil } from '../../helpers/prompt';
import { ScriptedModelServer } from '../../helpers/scripted-model-server';
import { basic, createTestApp, TestApp } from '../../helpers/test-app';
import { DESKTOP, fitsWidth, PHONE, signedInPage } from '../../helpers/web-app';

/**
 * Issue 48: an instance signed in to a console whose workspace has a connection ("Together", model "Llama 3.3
 * 70B"). The web app names the connection and the workspace where it showed their `conn_…` and `org_…` ids: the
 * model chooser, the Models page, the Server page (the console link and the activity by model).
 */
describe('the web app names what it showed as ids (Debian chromium)', () => {
  let upstream: ScriptedModelServer;
  let consoleApp: TestApp;
  let instance: TestApp;
  let owner: Person;
  let browser: Browser;
  let a: Api;
  let project: string;
  let connection: string;
  let session: string;

  beforeAll(async () => {
    upstream = await ScriptedModelServer.start();
    consoleApp = await createTestApp({
      env: {
        OUTPOST_SURFACES: 'console,inference',
        OUTPOST_CONNECTIONS_ALLOW: '127.0.0.1',
        OUTPOST_SECRET_KEY: 'web-names-secret-0123456789abcdef',
      },
    });
    owner = await signup(consoleApp);
    const created = await owner.post(`/console/api/orgs/${owner.org}/connections`, {
      name: 'Together',
      base_url: upstream.baseURL,
      schema: 'openai-chat',
      auth: { mode: 'bearer', credential: 'sk-connection-secret' },
      models: { 'llama-70b': { name: 'Llama 3.3 70B', prices: { input: 3, output: 6 } } },
    });
    expect(created.status).toBe(201);
    connection = created.body.id;
    project = projectDir({ 'README.md': 'names, not ids' });
    instance = await createTestApp({
      env: {
        OUTPOST_SURFACES: 'instance',
        OUTPOST_DEFAULT_DIRECTORY: project,
        OUTPOST_CONSOLE_POLL_MS: '300',
        OUTPOST_CONNECTIONS_ALLOW: '127.0.0.1',
      },
    });
    a = api(instance);
    const started = await a.post('/api/console-link/sign-in', { console: consoleApp.url });
    expect(started.status).toBe(200);
    await approve(consoleApp, owner, started.body.pending.userCode, owner.org);
    // Linked once the workspace's providers reach the location: the connection among them.
    let models = '';
    await pollUntil("the connection among the location's models", async () => {
      models = JSON.stringify(
        (await a.get(`/api/model?location[directory]=${encodeURIComponent(project)}`)).body,
      );
      return models.includes(connection);
    });
    expect(models).toContain(connection);
    // A step on the connection's model, so the Server page's activity has it.
    const log = new EventLog(instance);
    session = await a.createSession(project, { model: { providerID: connection, id: 'llama-70b' } });
    const idle = log.idle(session);
    upstream.script({ text: 'answered by Together', usage: { input: 100, output: 10 } });
    expect((await a.prompt(session, { text: 'hello' })).status).toBe(200);
    await idle;
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await instance?.close();
    await consoleApp?.close();
    await upstream?.close();
  });

  const noIds = async (text: Promise<string>) => expect(await text).not.toMatch(/\b(conn|org)_[0-9A-Z]/);

  async function modelsPage(page: Page) {
    await page.goto(`${instance.url}/#/models`);
    const here = page.getByRole('region', { name: `Models in ${project}` });
    await here.getByText('Together: Llama 3.3 70B').waitFor();
    return here;
  }

  async function sessionPage(page: Page) {
    await page.goto(`${instance.url}/#/session/${session}`);
    await page.locator('.message-foot', { hasText: 'Llama 3.3 70B (Together)' }).waitFor();
    const chooser = page.getByRole('combobox', { name: 'Model', exact: true });
    await chooser.locator('option', { hasText: 'Llama 3.3 70B (Together)' }).waitFor({ state: 'attached' });
    return chooser;
  }

  async function serverPage(page: Page) {
    await page.goto(`${instance.url}/#/server`);
    await page
      .getByTestId('console-state')
      .filter({ hasText: `Signed in to ${consoleApp.url}, workspace Personal.` })
      .waitFor();
    const activity = page.getByRole('table', { name: 'Cost by model' });
    await activity.getByText('Llama 3.3 70B (Together)').waitFor();
    return activity;
  }

  it('the Models page lists the connection by its name, not its conn_ id', async () => {
    const { page, context, problems } = await signedInPage(browser, instance, DESKTOP);
    const here = await modelsPage(page);
    await noIds(here.innerText());
    expect(problems).toEqual([]);
    await context.close();
  });

  it('the model chooser names the model and its connection; choosing it still stores the connection and model ids', async () => {
    const other = await a.createSession(project, { model: { providerID: 'nowhere', id: 'none' } });
    const { page, context, problems } = await signedInPage(browser, instance, DESKTOP);
    await page.goto(`${instance.url}/#/session/${other}`);
    const chooser = page.getByRole('combobox', { name: 'Model', exact: true });
    const option = chooser.locator('option', { hasText: 'Llama 3.3 70B (Together)' });
    await option.waitFor({ state: 'attached' });
    const offered = (await chooser.locator('option').allInnerTexts()).filter(
      (text) => text !== 'nowhere/none',
    );
    await noIds(Promise.resolve(offered.join('\n')));
    await chooser.selectOption({ label: 'Llama 3.3 70B (Together)' });
    const stored = async () => (await a.get(`/api/session/${other}`)).body.data.model;
    await pollUntil('the chosen model stored', async () => (await stored())?.providerID === connection, 50);
    expect(await stored()).toMatchObject({ providerID: connection, id: 'llama-70b' });
    expect(problems).toEqual([]);
    await context.close();
  });

  it('the transcript names the model each answer came from, not its conn_ id', async () => {
    const { page, context, problems } = await signedInPage(browser, instance, DESKTOP);
    await sessionPage(page);
    await noIds(page.locator('.session').innerText());
    expect(problems).toEqual([]);
    await context.close();
  });

  it("the Server page names the linked workspace and the activity's model, not their org_ and conn_ ids", async () => {
    const { page, context, problems } = await signedInPage(browser, instance, DESKTOP);
    const activity = await serverPage(page);
    await noIds(page.getByTestId('console-state').innerText());
    await noIds(activity.innerText());
    const info = await instance.http.get('/api/info').set('authorization', basic());
    expect(info.body.console).toMatchObject({ workspace: owner.org, workspaceName: 'Personal' });
    expect(problems).toEqual([]);
    await context.close();
  });

  for (const scheme of ['light', 'dark'] as const)
    for (const viewport of [DESKTOP, PHONE])
      it(`${scheme}, ${viewport.width} px: the three pages pass axe and fit the window (screenshots for docs/)`, async () => {
        const { page, context, problems } = await signedInPage(browser, instance, viewport);
        await page.emulateMedia({ colorScheme: scheme });
        const pages: Array<[string, (page: Page) => Promise<unknown>]> = [
          ['models', modelsPage],
          ['model-chooser', sessionPage],
          ['server', serverPage],
        ];
        for (const [name, open] of pages) {
          await open(page);
          expect({ name, problems: await accessibilityProblems(page) }).toEqual({ name, problems: [] });
          expect({ name, fits: await fitsWidth(page) }).toEqual({ name, fits: true });
          await screenshot(page, `names-${name}-${scheme}-${viewport.width}`);
        }
        expect(problems).toEqual([]);
        await context.close();
      });
});
