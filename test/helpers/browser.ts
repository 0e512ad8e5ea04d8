import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { Browser, chromium, Page } from 'playwright-core';

/** Screenshots and other things a person looks at after a run (git-ignored). */
export const ARTIFACTS = join(__dirname, '..', 'artifacts', 'web-app');

/** Debian's chromium, headless, with nothing of its own going out to the network. */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: '/usr/bin/chromium',
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
}

/**
 * What a page did that it must not: requests to any other origin, Content-Security-Policy refusals, script errors,
 * a 404 for a script, stylesheet, image or icon (an API call's or a page's 404 can be the answer a test wants).
 * The list is checked at the end of a test (it must stay empty).
 */
export function watch(page: Page, origin: string): string[] {
  const problems: string[] = [];
  page.on('request', (request) => {
    const url = request.url();
    if (!url.startsWith(origin) && !url.startsWith('data:') && !url.startsWith('blob:')) {
      problems.push(`request to another origin: ${url}`);
    }
  });
  page.on('console', (message) => {
    if (/Content Security Policy|Refused to/.test(message.text())) problems.push(message.text());
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('response', (response) => {
    const kind = response.request().resourceType();
    if (response.status() === 404 && !['fetch', 'xhr', 'document'].includes(kind)) {
      problems.push(`404 for ${kind} ${response.url()}`);
    }
  });
  return problems;
}

/** The whole page, or (`window: true`) only what the window shows, e.g. to see what sits under a sticky bar. */
export async function screenshot(
  page: Page,
  name: string,
  options: { window?: boolean } = {},
): Promise<string> {
  mkdirSync(ARTIFACTS, { recursive: true });
  const path = join(ARTIFACTS, `${name}.png`);
  await page.screenshot({ path, fullPage: !options.window });
  return path;
}
