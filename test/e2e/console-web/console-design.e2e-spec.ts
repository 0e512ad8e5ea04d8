import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { Browser, BrowserContext, Page } from 'playwright-core';
import { accessibilityProblems } from '../../helpers/axe';
import { launchBrowser, watch } from '../../helpers/browser';
import { Person, serviceAccountKey, signup } from '../../helpers/console';
import { requestCode } from '../../helpers/device';
import { createTestApp, TestApp } from '../../helpers/test-app';

const ARTIFACTS = join(__dirname, '..', '..', 'artifacts', 'console-design');

/** The page background of each scheme (web/shared/style.css). */
const BACKGROUND = { light: 'rgb(246, 247, 249)', dark: 'rgb(20, 22, 28)' };
const SIZES = { desktop: { width: 1280, height: 800 }, phone: { width: 390, height: 844 } };

/** Every console page, by who sees it: a signed-out visitor, the owner, the person invited. */
const SIGNED_OUT = ['/console/login', '/console/signup', '/console/forgot-password', '/console/no-such-page'];
const OWNER = [
  '/console',
  '/console/keys',
  '/console/members',
  '/console/budgets',
  '/console/usage',
  '/console/usage/requests',
  '/console/settings',
  '/console/audit',
  '/console/devices',
  '/console/device',
];

describe('one design for the console, light and dark, and no serious accessibility violation (Debian chromium)', () => {
  let t: TestApp;
  let browser: Browser;
  let owner: Person;
  let invited: Person;
  let invitePath: string;

  beforeAll(async () => {
    t = await createTestApp();
    browser = await launchBrowser();
    owner = await signup(t, 'owner@example.com');
    // A service account with a key, so the keys, budgets and audit pages have names to show (not ids).
    await serviceAccountKey(owner, owner.org, 'inference');
    invited = await signup(t, 'invited@example.com');
    const invite = await owner.post(`/console/api/orgs/${owner.org}/invites`, {
      email: invited.email,
      role: 'member',
    });
    expect(invite.status).toBe(201);
    invitePath = new URL(String(invite.body.url)).pathname;
    // A device sign-in waiting for approval: the page that asks the person to approve it.
    const code = await requestCode(t);
    OWNER.push(`/console/device?user_code=${encodeURIComponent(code.user_code)}`);
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  async function open(scheme: 'light' | 'dark', size: keyof typeof SIZES, person?: Person) {
    const context: BrowserContext = await browser.newContext({
      viewport: SIZES[size],
      colorScheme: scheme,
      ...(size === 'phone' ? { isMobile: true, hasTouch: true, deviceScaleFactor: 2 } : {}),
    });
    if (person) {
      const [name, value] = person.cookie.split('=');
      await context.addCookies([{ name, value, url: t.url }]);
    }
    const page = await context.newPage();
    return { context, page, problems: watch(page, t.url) };
  }

  /** Loads the page, then checks it wears the shared stylesheet in the scheme asked for and passes axe. */
  async function check(page: Page, path: string, scheme: 'light' | 'dark'): Promise<string[]> {
    await page.goto(`${t.url}${path}`);
    await page.waitForLoadState('networkidle');
    await page.locator('main h1').first().waitFor();
    const sheets = (await page.evaluate(
      '[...document.styleSheets].map((sheet) => new URL(sheet.href ?? "inline:", location.href).pathname)',
    )) as string[];
    expect({ path, sheets }).toEqual({ path, sheets: ['/web/style.css'] });
    const background = await page.evaluate('getComputedStyle(document.body).backgroundColor');
    expect({ path, background }).toEqual({ path, background: BACKGROUND[scheme] });
    return (await accessibilityProblems(page)).map((problem) => `${path} (${scheme}): ${problem}`);
  }

  // Written to test/artifacts (git-ignored); the README's pictures in docs/ are copies of some.
  async function shot(page: Page, name: string) {
    mkdirSync(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: join(ARTIFACTS, `${name}.png`), fullPage: true });
  }

  for (const scheme of ['light', 'dark'] as const) {
    for (const size of ['desktop', 'phone'] as const) {
      it(`${scheme}, ${size}: every console page (server-rendered and app) uses the one stylesheet and passes axe`, async () => {
        const found: string[] = [];
        const visitor = await open(scheme, size);
        for (const path of SIGNED_OUT) {
          found.push(...(await check(visitor.page, path, scheme)));
          await shot(visitor.page, `console-${path.split('/').pop()}-${scheme}-${size}`);
        }
        expect(visitor.problems).toEqual([]);
        await visitor.context.close();

        const signedIn = await open(scheme, size, owner);
        for (const path of OWNER) {
          found.push(...(await check(signedIn.page, path, scheme)));
          // Workspaces and people by name: no raw ids on the page.
          expect({ path, ids: await signedIn.page.locator('main').innerText() }).not.toMatchObject({
            ids: expect.stringMatching(/\b(org|usr|sa|conn|key)_[0-9A-Z]{10}/),
          });
          const name = path.split('/').pop()!.replace(/\?.*/, '-approve') || 'overview';
          await shot(signedIn.page, `console-${name}-${scheme}-${size}`);
        }
        expect(signedIn.problems).toEqual([]);
        await signedIn.context.close();

        const guest = await open(scheme, size, invited);
        found.push(...(await check(guest.page, invitePath, scheme)));
        await shot(guest.page, `console-invite-${scheme}-${size}`);
        expect(guest.problems).toEqual([]);
        await guest.context.close();

        expect(found).toEqual([]);
      });
    }
  }

  it.each(['desktop', 'phone'] as const)(
    'keyboard only on a %s: Tab from the top reaches the sign-in fields in order, each with a visible focus ring; Enter signs in',
    async (size) => {
      const { context, page, problems } = await open('dark', size);
      await page.goto(`${t.url}/console/login?next=/console/keys`);
      const order: string[] = [];
      for (let i = 0; i < 4; i++) {
        await page.keyboard.press('Tab');
        const focused = (await page.evaluate(`(() => {
          const e = document.activeElement;
          const style = getComputedStyle(e);
          return [e.id || e.textContent.trim(), style.outlineStyle, style.outlineWidth];
        })()`)) as [string, string, string];
        expect({ element: focused[0], outline: focused[1] }).toEqual({
          element: focused[0],
          outline: 'solid',
        });
        order.push(focused[0]);
      }
      expect(order).toEqual(['Outpost', 'email', 'password', 'Sign in']);
      await page.locator('#email').focus();
      await page.keyboard.type('owner@example.com');
      await page.keyboard.press('Tab');
      await page.keyboard.type('correct horse battery');
      await page.keyboard.press('Enter');
      await page.waitForURL(/\/console\/keys/);
      await page.getByRole('heading', { name: 'Keys', exact: true }).waitFor();
      expect(problems).toEqual([]);
      await context.close();
    },
  );

  it.each([
    ['light', 'desktop'],
    ['dark', 'phone'],
    ['dark', 'desktop'],
    ['light', 'phone'],
  ] as const)(
    '%s, %s: a key just made shows how to use it, passing axe and fitting the screen',
    async (scheme, size) => {
      const { context, page, problems } = await open(scheme, size, owner);
      await page.goto(`${t.url}/console/keys?org=${owner.org}`);
      await page.getByLabel('Key name').last().waitFor();
      const personal = page.getByRole('region', { name: /Your keys in/ });
      await personal.getByLabel('Key name').fill(`laptop ${scheme} ${size}`);
      await personal.getByRole('button', { name: 'Create personal key' }).click();
      const usage = page.locator('.key-usage');
      await usage.getByRole('heading', { name: 'Use it' }).waitFor();
      expect(await accessibilityProblems(page)).toEqual([]);
      const wide = await page.evaluate(
        'document.documentElement.scrollWidth > document.documentElement.clientWidth',
      );
      expect(wide).toBe(false);
      // The panel alone, for docs/console.md.
      mkdirSync(ARTIFACTS, { recursive: true });
      await page
        .getByRole('region', { name: /^Your key “laptop/ })
        .screenshot({ path: join(ARTIFACTS, `console-key-use-it-${scheme}-${size}.png`) });
      expect(problems).toEqual([]);
      await context.close();
    },
  );
});
