/* `outpost login <console url>`, `outpost login --status` and `outpost logout`: link this instance to a console. */
import qrcode from 'qrcode-terminal';
import { parseAppEnv } from '../../config/env';
import { ConsoleCallError, pollDeviceToken, requestDeviceCode } from './console-client';
import { readLink, removeLink, writeLink } from './console-link.store';

const USAGE = `usage: outpost login <console url>     sign this instance in to a console (device sign-in)
       outpost login --status          whether it is signed in, to which console and workspace
       outpost logout                  sign out: the console revokes the device sign-in

While signed in, the instance uses the workspace's providers and policies through the console's gateway,
billed to you. The tokens are kept in $OUTPOST_DATA_DIR/console.json (mode 0600).
`;

class LoginError extends Error {}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function consoleOrigin(value: string | undefined): string {
  if (!value) throw new LoginError('which console? outpost login <console url>');
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new LoginError(`not a URL: ${value}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new LoginError(`not an http(s) URL: ${value}`);
  return url.origin;
}

async function login(consoleUrl: string, dataDir: string): Promise<void> {
  const code = await requestDeviceCode(consoleUrl);
  const link = new URL(code.verification_uri_complete, consoleUrl).toString();
  process.stdout.write(`To sign in, open ${link}\nand check that it shows the code ${code.user_code}\n\n`);
  qrcode.generate(link, { small: true }, (qr: string) => process.stdout.write(`${qr}\n`));
  let interval = code.interval * 1000;
  const deadline = Date.now() + code.expires_in * 1000;
  while (Date.now() < deadline) {
    await sleep(interval);
    try {
      const tokens = await pollDeviceToken(consoleUrl, code.device_code);
      const now = Date.now();
      writeLink(dataDir, {
        consoleUrl,
        orgId: tokens.org_id,
        accessToken: tokens.access_token,
        refreshToken: tokens.refresh_token,
        expiresAt: now + tokens.expires_in * 1000,
        linkedAt: now,
      });
      process.stdout.write(
        `Signed in to ${consoleUrl}${tokens.org_id ? `, workspace ${tokens.org_id}` : ''}. A running server picks it up within a minute.\n`,
      );
      return;
    } catch (error) {
      if (!(error instanceof ConsoleCallError)) throw error;
      if (error.code === 'authorization_pending') continue;
      if (error.code === 'slow_down') {
        interval += 5_000;
        continue;
      }
      if (error.code === 'access_denied') throw new LoginError('the sign-in was denied in the console');
      if (error.code === 'expired_token') break;
      throw new LoginError(`the console refused the sign-in: ${error.message}`);
    }
  }
  throw new LoginError('the code expired before it was approved; run outpost login again');
}

function status(dataDir: string): void {
  const link = readLink(dataDir);
  if (!link) {
    process.stdout.write('not signed in to a console (outpost login <console url>)\n');
    return;
  }
  const since = new Date(link.linkedAt).toISOString();
  const state = link.signedOut ? 'signed out by the console: run outpost login again' : 'signed in';
  process.stdout.write(`${state}: ${link.consoleUrl}, workspace ${link.orgId ?? '(none)'}, since ${since}\n`);
}

async function logout(dataDir: string): Promise<void> {
  const link = readLink(dataDir);
  if (!link) {
    process.stdout.write('not signed in to a console\n');
    return;
  }
  const headers = { authorization: `Bearer ${link.accessToken}` };
  try {
    const res = await fetch(`${link.consoleUrl}/console/api/sessions`, { headers });
    if (res.ok) {
      const sessions = (await res.json()) as Array<{ id: string; current: boolean }>;
      const current = sessions.find((session) => session.current);
      if (current) {
        await fetch(`${link.consoleUrl}/console/api/sessions/${current.id}`, { method: 'DELETE', headers });
      }
    }
  } catch {
    process.stderr.write(
      `the console at ${link.consoleUrl} did not answer; its sign-in stays until it expires\n`,
    );
  }
  removeLink(dataDir);
  process.stdout.write(`signed out of ${link.consoleUrl}\n`);
}

export async function loginCommand(name: 'login' | 'logout', argv: string[]): Promise<void> {
  if (argv.includes('--help') || argv.includes('-h')) {
    process.stdout.write(USAGE);
    return;
  }
  const { dataDir } = parseAppEnv(process.env);
  try {
    if (name === 'logout') await logout(dataDir);
    else if (argv.includes('--status')) status(dataDir);
    else await login(consoleOrigin(argv[0]), dataDir);
  } catch (error) {
    const message =
      error instanceof LoginError || error instanceof ConsoleCallError ? error.message : String(error);
    process.stderr.write(`outpost ${name}: ${message}\n`);
    process.exit(1);
  }
}
