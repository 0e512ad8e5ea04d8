import { OutboundHttp, refusedAddress } from '@/common/net/outbound-http';
import { ALLOW_VARIABLE } from '@/common/net/outbound.config';
import { DeviceCode, deviceCodeAnswer, tokenAnswer, Tokens, workspaceNameAnswer } from './console-answers';

/**
 * The console's device-flow endpoints, as `outpost login` and the instance's link call them. The console is named
 * by a person, so every call goes through the outbound guard: one on loopback or the private network needs the
 * operator's `OUTPOST_CONNECTIONS_ALLOW`. Its answers are checked (console-answers.ts) before anything uses them.
 */
export const CLIENT_ID = 'outpost-cli';
const DEVICE_GRANT = 'urn:ietf:params:oauth:grant-type:device_code';

export class ConsoleCallError extends Error {
  constructor(
    message: string,
    readonly status: number,
    /** The OAuth `error` member, e.g. `invalid_grant`. */
    readonly code?: string,
  ) {
    super(message);
  }
}

/** A call the outbound guard refused, saying how to allow it; undefined for any other failure. */
export function refusal(error: unknown): string | undefined {
  const refused = refusedAddress(error);
  return refused && `${refused.message}; the server's operator can allow it with ${ALLOW_VARIABLE}`;
}

/** POSTs JSON; a refusal is a `ConsoleCallError`, an answer is returned unchecked (the callers check it). */
async function post(http: OutboundHttp, url: string, body: object): Promise<unknown> {
  let res: Awaited<ReturnType<OutboundHttp['fetch']>>;
  try {
    res = await http.fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  } catch (error) {
    throw new ConsoleCallError(refusal(error) ?? `no console answers at ${new URL(url).origin}`, 0);
  }
  const answer: unknown = await res.json().catch(() => undefined);
  if (!res.ok) {
    const refused = (answer ?? {}) as { error?: unknown; error_description?: unknown };
    const code = typeof refused.error === 'string' ? refused.error.slice(0, 200) : undefined;
    const said =
      typeof refused.error_description === 'string' ? refused.error_description.slice(0, 500) : code;
    throw new ConsoleCallError(
      said ?? `the console at ${new URL(url).origin} answered ${res.status}`,
      res.status,
      code,
    );
  }
  return answer;
}

export async function requestDeviceCode(http: OutboundHttp, consoleUrl: string): Promise<DeviceCode> {
  const answer = await post(http, `${consoleUrl}/console/auth/device/code`, {
    client_id: CLIENT_ID,
    supports_org_scope: true,
  });
  return deviceCodeAnswer(consoleUrl, answer);
}

export async function pollDeviceToken(
  http: OutboundHttp,
  consoleUrl: string,
  deviceCode: string,
): Promise<Tokens> {
  const answer = await post(http, `${consoleUrl}/console/auth/device/token`, {
    grant_type: DEVICE_GRANT,
    device_code: deviceCode,
    client_id: CLIENT_ID,
  });
  return tokenAnswer(consoleUrl, answer);
}

export async function refreshTokens(
  http: OutboundHttp,
  consoleUrl: string,
  refreshToken: string,
): Promise<Tokens> {
  const answer = await post(http, `${consoleUrl}/console/auth/device/token`, {
    grant_type: 'refresh_token',
    refresh_token: refreshToken,
    client_id: CLIENT_ID,
  });
  return tokenAnswer(consoleUrl, answer);
}

/**
 * The name of the workspace a device token is bound to, as the console's `GET /console/api/orgs` lists it (a
 * bound token sees that workspace only): what a person reads instead of its `org_…` id. Null when the console
 * does not say (an older console, an outage): the id is shown then.
 */
export async function workspaceName(
  http: OutboundHttp,
  consoleUrl: string,
  accessToken: string,
  orgId: string,
): Promise<string | null> {
  try {
    const res = await http.fetch(`${consoleUrl}/console/api/orgs`, {
      headers: { authorization: `Bearer ${accessToken}`, 'x-org-id': orgId },
    });
    if (!res.ok) return null;
    return workspaceNameAnswer(orgId, await res.json().catch(() => undefined));
  } catch {
    return null;
  }
}
