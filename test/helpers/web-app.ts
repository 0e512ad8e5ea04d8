import { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { watch } from './browser';
import { basic, TestApp } from './test-app';

export const DESKTOP = { width: 1280, height: 800 };
export const PHONE = { width: 390, height: 844 };

/** A page of the web app signed in through a pairing link, at the given size (390 px wide is a phone). */
export async function signedInPage(
  browser: Browser,
  t: TestApp,
  viewport: { width: number; height: number },
): Promise<{ page: Page; context: BrowserContext; problems: string[] }> {
  const pairing = await t.http.post('/api/pair').set('authorization', basic());
  if (pairing.status !== 200) throw new Error(`pairing: ${pairing.status}`);
  const phone = viewport.width < 600;
  const context = await browser.newContext({
    viewport,
    ...(phone ? { isMobile: true, hasTouch: true, deviceScaleFactor: 2 } : {}),
  });
  const page = await context.newPage();
  const problems = watch(page, t.url);
  await page.goto(pairing.body.url);
  await page.getByRole('heading', { name: 'Sessions' }).waitFor();
  return { page, context, problems };
}

export function hasFocus(target: Locator): Promise<boolean> {
  return target.evaluate((element) => element === element.ownerDocument.activeElement);
}

/** Nothing wider than the viewport: no sideways scrolling on a phone. */
export async function fitsWidth(page: Page): Promise<boolean> {
  const [scrollWidth, innerWidth] = (await page.evaluate(
    '[document.documentElement.scrollWidth, innerWidth]',
  )) as number[];
  return scrollWidth <= innerWidth;
}
