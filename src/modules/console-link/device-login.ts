/* The device sign-in of an instance to a console, shared by `outpost login` and the web app's server page. */
import { OutboundHttp } from '@/common/net/outbound-http';
import { Tokens } from './console-answers';
import { ConsoleCallError, pollDeviceToken, requestDeviceCode, workspaceName } from './console-client';
import { ConsoleLink, readLink, removeLink, writeLink } from './console-link.store';

/** A sign-in that cannot go on (denied, expired, refused), in words for the person. */
export class DeviceLoginError extends Error {}

export interface DeviceLogin {
  /** The code the console's approval page shows, to compare. */
  userCode: string;
  /** The console's approval page with the code filled in. */
  link: string;
  /** Epoch ms when the code expires. */
  expiresAt: number;
  /** Settles once the code is approved (the link is written), denied, expired or cancelled. */
  done: Promise<ConsoleLink>;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The console's origin from what a person typed; a `DeviceLoginError` when it is no http(s) URL. */
export function consoleOrigin(value: string | undefined): string {
  if (!value) throw new DeviceLoginError('which console? outpost login <console url>');
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new DeviceLoginError(`not a URL: ${value}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new DeviceLoginError(`not an http(s) URL: ${value}`);
  return url.origin;
}

/**
 * Asks the console for a device code and polls for its approval in the background (at the console's interval,
 * at least a second apart, slower when told to; for an hour at most). Once approved, the tokens are written to `$dataDir/console.json` (mode 0600), where the
 * running server's link picks them up. `cancelled()` stops the polling.
 */
export async function startDeviceLogin(
  http: OutboundHttp,
  consoleUrl: string,
  dataDir: string,
  cancelled: () => boolean = () => false,
): Promise<DeviceLogin> {
  const code = await requestDeviceCode(http, consoleUrl);
  const expiresAt = Date.now() + code.expiresInSeconds * 1000;
  const poll = async (): Promise<ConsoleLink> => {
    let interval = code.intervalSeconds * 1000;
    while (Date.now() < expiresAt) {
      await sleep(interval);
      if (cancelled()) throw new DeviceLoginError('the sign-in was cancelled');
      let tokens: Tokens;
      try {
        tokens = await pollDeviceToken(http, consoleUrl, code.deviceCode);
      } catch (error) {
        if (!(error instanceof ConsoleCallError)) throw error;
        if (error.code === 'authorization_pending') continue;
        if (error.code === 'slow_down') {
          interval += 5_000;
          continue;
        }
        if (error.code === 'access_denied')
          throw new DeviceLoginError('the sign-in was denied in the console');
        if (error.code === 'expired_token') break;
        throw new DeviceLoginError(`the console refused the sign-in: ${error.message}`);
      }
      const orgName = tokens.orgId
        ? await workspaceName(http, consoleUrl, tokens.accessToken, tokens.orgId)
        : null;
      const now = Date.now();
      const signedIn: ConsoleLink = {
        consoleUrl,
        orgId: tokens.orgId,
        ...(orgName ? { orgName } : {}),
        accessToken: tokens.accessToken,
        refreshToken: tokens.refreshToken,
        expiresAt: now + tokens.expiresInSeconds * 1000,
        linkedAt: now,
      };
      writeLink(dataDir, signedIn);
      return signedIn;
    }
    throw new DeviceLoginError('the code expired before it was approved');
  };
  return { userCode: code.userCode, link: code.link, expiresAt, done: poll() };
}

/**
 * Signs the instance out: the console revokes this device sign-in (when it answers) and the tokens are deleted.
 * Returns the console signed out of (null when there was none) and whether the console answered.
 */
export async function signOutOfConsole(
  http: OutboundHttp,
  dataDir: string,
): Promise<{ consoleUrl: string | null; answered: boolean }> {
  const link = readLink(dataDir);
  if (!link) return { consoleUrl: null, answered: false };
  const headers = { authorization: `Bearer ${link.accessToken}` };
  let answered = true;
  try {
    const res = await http.fetch(`${link.consoleUrl}/console/api/sessions`, { headers });
    if (res.ok) {
      const sessions = (await res.json()) as Array<{ id: string; current: boolean }>;
      const current = sessions.find((session) => session.current);
      if (current) {
        await http.fetch(`${link.consoleUrl}/console/api/sessions/${current.id}`, {
          method: 'DELETE',
          headers,
        });
      }
    }
  } catch {
    answered = false;
  }
  removeLink(dataDir);
  return { consoleUrl: link.consoleUrl, answered };
}
