/* `outpost login <console url>`, `outpost login --status` and `outpost logout`: link this instance to a console. */
import qrcode from 'qrcode-terminal';
import { commandLineOrExit } from '@/common/cli/command-line';
import { OutboundHttp } from '@/common/net/outbound-http';
import { parseAppEnv } from '@/config/env';
import { ConsoleAnswerError } from './console-answers';
import { ConsoleCallError } from './console-client';
import { readLink } from './console-link.store';
import { consoleOrigin, DeviceLoginError, signOutOfConsole, startDeviceLogin } from './device-login';

const USAGE = `usage: outpost login <console url>     sign this instance in to a console (device sign-in)
       outpost login --status          whether it is signed in, to which console and workspace
       outpost logout                  sign out: the console revokes the device sign-in

While signed in, the instance uses the workspace's providers and policies through the console's gateway,
billed to you. The tokens are kept in $OUTPOST_DATA_DIR/console.json (mode 0600).
`;

/** The workspace as a person reads it: its name, and its id in parentheses (`Acme (org_01J…)`). */
function workspaceWords(link: { orgId: string | null; orgName?: string }): string {
  if (!link.orgId) return '(none)';
  return link.orgName ? `${link.orgName} (${link.orgId})` : link.orgId;
}

async function login(http: OutboundHttp, consoleUrl: string, dataDir: string): Promise<void> {
  const { link, userCode, done } = await startDeviceLogin(http, consoleUrl, dataDir);
  process.stdout.write(`To sign in, open ${link}\nand check that it shows the code ${userCode}\n\n`);
  qrcode.generate(link, { small: true }, (qr: string) => process.stdout.write(`${qr}\n`));
  let signedIn;
  try {
    signedIn = await done;
  } catch (error) {
    if (error instanceof DeviceLoginError && /expired/.test(error.message))
      throw new DeviceLoginError('the code expired before it was approved; run outpost login again');
    throw error;
  }
  process.stdout.write(
    `Signed in to ${consoleUrl}${signedIn.orgId ? `, workspace ${workspaceWords(signedIn)}` : ''}. A running server picks it up within seconds.\n`,
  );
}

function status(dataDir: string): void {
  const link = readLink(dataDir);
  if (!link) {
    process.stdout.write('not signed in to a console (outpost login <console url>)\n');
    return;
  }
  const since = new Date(link.linkedAt).toISOString();
  const state = link.signedOut ? 'signed out by the console: run outpost login again' : 'signed in';
  process.stdout.write(`${state}: ${link.consoleUrl}, workspace ${workspaceWords(link)}, since ${since}\n`);
}

async function logout(http: OutboundHttp, dataDir: string): Promise<void> {
  const { consoleUrl, answered } = await signOutOfConsole(http, dataDir);
  if (!consoleUrl) {
    process.stdout.write('not signed in to a console\n');
    return;
  }
  if (!answered)
    process.stderr.write(`the console at ${consoleUrl} did not answer; its sign-in stays until it expires\n`);
  process.stdout.write(`signed out of ${consoleUrl}\n`);
}

export async function loginCommand(name: 'login' | 'logout', argv: string[]): Promise<void> {
  const { values, positionals } = commandLineOrExit(
    name,
    USAGE,
    argv,
    { status: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } },
    name === 'login' ? 1 : 0,
  );
  if (values.help) {
    process.stdout.write(USAGE);
    return;
  }
  const { dataDir } = parseAppEnv(process.env);
  // The same guard as the server's: a console on loopback or the private network needs OUTPOST_CONNECTIONS_ALLOW.
  let http: OutboundHttp | undefined;
  try {
    http = OutboundHttp.fromEnv(process.env);
    if (name === 'logout') await logout(http, dataDir);
    else if (values.status) status(dataDir);
    else await login(http, consoleOrigin(positionals[0]), dataDir);
  } catch (error) {
    const known =
      error instanceof DeviceLoginError ||
      error instanceof ConsoleCallError ||
      error instanceof ConsoleAnswerError;
    const message = known ? error.message : String(error);
    process.stderr.write(`outpost ${name}: ${message}\n`);
    process.exit(1);
  } finally {
    await http?.close();
  }
}
