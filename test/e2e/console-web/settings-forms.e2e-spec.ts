import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { Browser, BrowserContext, Page } from 'playwright-core';
import { accessibilityProblems } from '../../helpers/axe';
import { launchBrowser, watch } from '../../helpers/browser';
import { Person, signup } from '../../helpers/console';
import { ScriptedModelServer } from '../../helpers/scripted-model-server';
import { createTestApp, TestApp } from '../../helpers/test-app';

const ARTIFACTS = join(__dirname, '..', '..', 'artifacts', 'console-design');

describe('console settings as forms, JSON as the advanced view (Debian chromium)', () => {
  let t: TestApp;
  let browser: Browser;
  let owner: Person;
  let upstream: ScriptedModelServer;
  let searchProvider: string;

  beforeAll(async () => {
    upstream = await ScriptedModelServer.start();
    // The connections' scripted upstream listens on loopback, which connections may not reach by default.
    t = await createTestApp({ env: { OUTPOST_CONNECTIONS_ALLOW: '127.0.0.1' } });
    owner = await signup(t, 'owner@example.com');
    const search = await owner.post(`/console/api/orgs/${owner.org}/search-providers`, {
      kind: 'searxng',
      name: 'Team search',
      base_url: 'https://searx.example.com',
    });
    searchProvider = search.body.id;
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
    await upstream?.close();
  });

  const stored = async () =>
    (await owner.get('/console/api/v2/config').set('x-org-id', owner.org)).body as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

  async function settings(viewport: { width: number; height: number }): Promise<{
    context: BrowserContext;
    page: Page;
    problems: string[];
  }> {
    const context = await browser.newContext({ viewport });
    const [name, value] = owner.cookie.split('=');
    await context.addCookies([{ name, value, url: t.url }]);
    const page = await context.newPage();
    const problems = watch(page, t.url);
    await page.goto(`${t.url}/console/settings?org=${owner.org}`);
    await page.getByRole('heading', { name: 'Providers and models' }).waitFor();
    return { context, page, problems };
  }

  const shot = async (page: Page, name: string) => {
    mkdirSync(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: join(ARTIFACTS, `${name}.png`), fullPage: true });
  };

  it('at 1280 px: a provider added and edited in a form, with prices and limits; errors in words next to their field', async () => {
    const { context, page, problems } = await settings({ width: 1280, height: 900 });
    await page.getByRole('button', { name: 'Add a provider' }).click();
    const form = page.getByRole('form', { name: 'Add a provider' });
    await form.getByLabel('Id', { exact: true }).fill('team');
    await form.getByLabel('Name', { exact: true }).first().fill('Team gateway');
    await form.getByLabel('Base URL').fill('not a url');
    const model = form.getByRole('group', { name: 'Model 1' });
    await model.getByLabel('Model id').fill('small');
    await model.getByLabel('Name').fill('Small');
    await model.getByLabel('Input $').fill('1');
    await model.getByLabel('Output $').fill('two');
    await form.getByRole('button', { name: 'Save provider' }).click();
    // Refused in the page: the price is a number.
    await model.getByText('Prices of small are dollars per million tokens, e.g. 2.5.').waitFor();
    await model.getByLabel('Output $').fill('2');
    await model.getByLabel('Context limit').fill('200000');
    await form.getByRole('button', { name: 'Save provider' }).click();
    // Refused by the server: its words, as a sentence, under the Base URL field.
    const baseError = form.locator('#prov-baseURL-error');
    await baseError.waitFor();
    // In words a person acts on; the API's message keeps the field's name.
    expect(await baseError.innerText()).toBe('Enter a full address that starts with http:// or https://.');
    expect(await form.getByLabel('Base URL').getAttribute('aria-describedby')).toBe('prov-baseURL-error');
    expect(await accessibilityProblems(page)).toEqual([]);
    await shot(page, 'settings-provider-error-desktop');

    await form.getByLabel('Base URL').fill('https://gateway.example.com/v1');
    await form.getByRole('button', { name: 'Save provider' }).click();
    await page.getByText('Team gateway was saved.').waitFor();
    expect((await stored()).providers.team).toMatchObject({
      name: 'Team gateway',
      package: 'aisdk:@ai-sdk/openai-compatible',
      settings: { baseURL: 'https://gateway.example.com/v1', apiKey: '{env:OUTPOST_API_KEY}' },
      models: { small: { name: 'Small', cost: { input: 1, output: 2 }, limit: { context: 200000 } } },
    });

    // Edit: another model, with prices.
    await page.getByRole('button', { name: 'Edit Team gateway' }).click();
    const edit = page.getByRole('form', { name: 'Edit Team gateway' });
    await edit.getByRole('button', { name: 'Add a model' }).click();
    const second = edit.getByRole('group', { name: 'Model 2' });
    await second.getByLabel('Model id').fill('large');
    await second.getByLabel('Input $').fill('3');
    await second.getByLabel('Output $').fill('15');
    await edit.getByRole('button', { name: 'Save provider' }).click();
    await page.getByText('Team gateway was saved.').waitFor();
    await page
      .getByRole('row', { name: /Team gateway/ })
      .getByText('large, Small')
      .waitFor();
    expect((await stored()).providers.team.models.large).toMatchObject({ cost: { input: 3, output: 15 } });

    // Web search through the workspace's search provider, chosen by name; an MCP server whose URL is refused next
    // to it, then fixed.
    await page.getByLabel('Web search for members').selectOption({ label: 'Through Team search' });
    await page.getByRole('button', { name: 'Save web search' }).click();
    await page.getByRole('region', { name: 'Web search' }).getByText('Saved.').waitFor();
    expect((await stored()).websearch).toEqual({ providerID: searchProvider });
    await page.getByRole('button', { name: 'Add an MCP server' }).click();
    const server = page.getByRole('group', { name: 'MCP server 1' });
    await server.getByLabel('Name').fill('docs');
    await server.getByLabel('URL').fill('ftp://docs.example.com');
    await page.getByRole('button', { name: 'Save MCP servers' }).click();
    await server.getByText('Enter a full address that starts with http:// or https://.').waitFor();
    await server.getByLabel('URL').fill('https://docs.example.com/mcp');
    await page.getByRole('button', { name: 'Save MCP servers' }).click();
    await page.getByRole('region', { name: 'MCP servers' }).getByText('Saved.').waitFor();
    expect((await stored()).mcp.servers.docs).toMatchObject({
      type: 'remote',
      url: 'https://docs.example.com/mcp',
    });
    // The JSON view of the providers holds what the form saved.
    await page.getByText('Advanced: providers as JSON').click();
    const json = JSON.parse(await page.getByLabel('Providers (JSON)').inputValue());
    expect(json.team.models.large).toMatchObject({ cost: { input: 3, output: 15 } });
    await shot(page, 'settings-forms-desktop');
    expect(problems).toEqual([]);
    await context.close();
  });

  it('at 390 px, keyboard only: a policy added in the form; the JSON view shows it', async () => {
    const { context, page, problems } = await settings({ width: 390, height: 844 });
    await page.getByRole('button', { name: 'Add a policy' }).focus();
    await page.keyboard.press('Enter');
    const policy = page.getByRole('group', { name: 'Policy 1' });
    await policy.getByLabel('Effect').focus();
    // Effect (deny), Tab to What (provider), Tab to the pattern.
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    await page.keyboard.type('team/large');
    await page.getByRole('button', { name: 'Save policies' }).focus();
    await page.keyboard.press('Enter');
    await page.getByRole('region', { name: 'Policies' }).getByText('Saved.').waitFor();
    expect((await stored()).policies).toEqual([
      { action: 'provider.use', effect: 'deny', resource: 'team/large' },
    ]);
    await page.getByText('Advanced: policies as JSON').click();
    expect(JSON.parse(await page.getByLabel('Policies (JSON)').inputValue())).toEqual([
      { action: 'provider.use', effect: 'deny', resource: 'team/large' },
    ]);
    const widths = (await page.evaluate('[document.documentElement.scrollWidth, innerWidth]')) as number[];
    expect(widths[0]).toBeLessThanOrEqual(widths[1]);
    expect(await accessibilityProblems(page)).toEqual([]);
    await shot(page, 'settings-forms-phone');
    expect(problems).toEqual([]);
    await context.close();
  });

  it('at 1280 px: a connection added with prices, its prices edited and its key rotated in the same form', async () => {
    const { context, page, problems } = await settings({ width: 1280, height: 900 });
    const section = page.getByRole('region', { name: 'Bring-your-own-key connections' });
    await section.getByRole('button', { name: 'Add a connection' }).click();
    const form = section.getByRole('form', { name: 'Add a connection' });
    await form.getByLabel('Name', { exact: true }).first().fill('Own OpenAI');
    await form.getByLabel('Base URL').fill('https://api.example.com/v1');
    await form.getByLabel('API key (write-only)').fill('sk-first-key-000000001111');
    const model = form.getByRole('group', { name: 'Connection model 1' });
    await model.getByLabel('Model id').fill('gpt-x');
    await model.getByLabel('Input $').fill('2');
    await model.getByLabel('Output $').fill('8');
    await model.getByLabel('Used for').selectOption({ label: 'Chat only' });
    await form.getByRole('button', { name: 'Add connection' }).click();
    await section.getByText('Own OpenAI was saved.').waitFor();
    const row = section.getByRole('row', { name: /Own OpenAI/ });
    await row.getByText('$2 in / $8 out per million tokens').waitFor();
    await row.getByText('…1111').waitFor();

    await row.getByRole('button', { name: 'Edit connection Own OpenAI' }).click();
    const edit = section.getByRole('form', { name: 'Edit Own OpenAI' });
    const edited = edit.getByRole('group', { name: 'Connection model 1' });
    expect(await edited.getByLabel('Used for').inputValue()).toBe('chat'); // the form shows what was saved
    await edited.getByLabel('Output $').fill('6');
    await shot(page, 'settings-connection-form-desktop');
    await edit.getByLabel('New API key (empty keeps …1111)').fill('sk-second-key-00000002222');
    await edit.getByRole('button', { name: 'Save connection' }).click();
    await section.getByText('Own OpenAI was saved. Its new key is in use; the old one is gone.').waitFor();
    await row.getByText('$2 in / $6 out per million tokens').waitFor();
    await row.getByText('…2222').waitFor();
    const listed = await owner.get(`/console/api/orgs/${owner.org}/connections`);
    expect(listed.body[0].models['gpt-x']).toMatchObject({ prices: { input: 2, output: 6 }, kind: 'chat' });
    expect(JSON.stringify(listed.body)).not.toContain('sk-second-key');
    expect(await accessibilityProblems(page)).toEqual([]);
    await shot(page, 'settings-connections-desktop');
    expect(problems).toEqual([]);
    await context.close();
  });

  it.each([
    ['desktop', { width: 1280, height: 900 }],
    ['phone', { width: 390, height: 844 }],
  ] as const)(
    'on a %s: Test on a connection says what answered, or why nothing did',
    async (size, viewport) => {
      const added = await owner.post(`/console/api/orgs/${owner.org}/connections`, {
        name: `Local ${size}`,
        base_url: upstream.baseURL,
        schema: 'openai-chat',
        auth: { mode: 'bearer', credential: 'sk-local-credential' },
        models: { tiny: { name: 'Tiny' } },
      });
      expect(added.status).toBe(201);
      const { context, page, problems } = await settings(viewport);
      const section = page.getByRole('region', { name: 'Bring-your-own-key connections' });
      upstream.script({ text: 'p', usage: { input: 1, output: 1 } });
      await section.getByRole('button', { name: `Test connection Local ${size}` }).click();
      // The status line of the section, whatever it says.
      const status = (text: RegExp) => section.getByRole('status').filter({ hasText: text });
      const answered = status(new RegExp(`^Connection “Local ${size}” at .+/chat/completions answered`));
      await answered.waitFor();
      expect(await answered.getAttribute('class')).toBe('notice');
      expect(await accessibilityProblems(page)).toEqual([]);
      await shot(page, `settings-connection-tested-${size}`);

      upstream.script({ error: { status: 401, message: 'Incorrect API key provided' } });
      await section.getByRole('button', { name: `Test connection Local ${size}` }).click();
      const refused = status(
        /refused the call with HTTP 401: Incorrect API key provided\. Check the credential\.$/,
      );
      await refused.waitFor();
      expect(await refused.getAttribute('class')).toBe('error');
      expect(problems).toEqual([]);
      await context.close();
    },
  );
});
