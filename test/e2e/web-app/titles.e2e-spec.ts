import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { Browser } from 'playwright-core';
import { launchBrowser, screenshot } from '../../helpers/browser';
import { projectDir } from '../../helpers/project-dir';
import { ScriptedModelServer } from '../../helpers/scripted-model-server';
import { basic, createTestApp, TestApp } from '../../helpers/test-app';
import { api, Api, providerConfig } from '../../helpers/prompt';
import { DESKTOP, fitsWidth, PHONE, signedInPage } from '../../helpers/web-app';

describe('session titles as they arrive, and long paths (Debian chromium through playwright-core)', () => {
  let t: TestApp;
  let server: ScriptedModelServer;
  let browser: Browser;
  let a: Api;
  let deep: string;

  beforeAll(async () => {
    server = await ScriptedModelServer.start();
    t = await createTestApp();
    a = api(t);
    browser = await launchBrowser();
    const project = projectDir({ 'outpost.json': providerConfig(server) });
    deep = join(project, 'services', 'billing', 'invoices', 'templates');
    mkdirSync(deep, { recursive: true });
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
    await server?.close();
  });

  const rename = (id: string, title: string) =>
    t.http.patch(`/api/session/${id}`).set('authorization', basic()).send({ title });

  it.each([
    ['desktop', DESKTOP],
    ['phone', PHONE],
  ])(
    'on a %s: a title given after the page opened shows in the list, the heading and the tab without a reload; a deep directory is shortened to its last two folders',
    async (name, viewport) => {
      const id = await a.createSession(deep, { title: `Before ${name}` });
      const { page, context, problems } = await signedInPage(browser, t, viewport);
      const item = page.getByRole('list', { name: 'Sessions' }).getByRole('link');
      await page.getByRole('list', { name: 'Sessions' }).getByText(`Before ${name}`).first().waitFor();

      expect((await rename(id, `Invoices ${name}`)).status).toBe(204);
      await page.getByRole('list', { name: 'Sessions' }).getByText(`Invoices ${name}`).waitFor();
      await expect(item.first().textContent()).resolves.toContain('…/invoices/templates');

      await page.goto(`${t.url}/#/session/${id}`);
      await page.getByRole('heading', { name: `Invoices ${name}` }).waitFor();
      const path = page.getByTestId('session-directory');
      await expect(path.textContent()).resolves.toBe('…/invoices/templates');
      await expect(path.getAttribute('title')).resolves.toBe(deep);

      expect((await rename(id, `Invoice templates ${name}`)).status).toBe(204);
      await page.getByRole('heading', { name: `Invoice templates ${name}` }).waitFor();
      await page.waitForFunction(
        `document.title === ${JSON.stringify(`Invoice templates ${name} · Outpost`)}`,
      );
      expect(await fitsWidth(page)).toBe(true);
      await screenshot(page, `title-${name}`);
      expect(problems).toEqual([]);
      await context.close();
    },
  );
});
