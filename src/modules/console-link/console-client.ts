import { OutboundHttp, refusedAddress } from '@/common/net/outbound-http';
import { ALLOW_VARIABLE } from '@/common/net/outbound.config';

/**
 * The console's device-flow endpoints, as `outpost login` and the instance's link call them. The console is named
 * by a person, so every call goes through the outbound guard: one on loopback or the private network needs the
 * operator's `OUTPOST_CONNECTIONS_ALLOW`.
 */
export const CLIENT_ID = 'outpost-cli';
const DEVICE_GRANT = 'urn:ietf:params:oauth:grant-type:device_code';

export interface TokenAnswer {
  access_token: string;
  refresh_token: string;
  expires_in: number;
  org_id: string | null;
}

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

async function post<T>(http: OutboundHttp, url: string, body: object): Promise<T> {
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
  const answer = (await res.json().catch(() => ({}))) as T & { error?: string; error_description?: string };
  if (!res.ok) {
    throw new ConsoleCallError(
      answer.error_description ?? answer.error ?? res.statusText,
      res.status,
      answer.error,
    );
  }
  return answer;
}

export function requestDeviceCode(http: OutboundHttp, consoleUrl: string) {
  return post<{
    device_code: string;
    user_code: string;
    verification_uri: string;
    verification_uri_complete: string;
    expires_in: number;
    interval: number;
  }>(http, `${consoleUrl}/console/auth/device/code`, { client_id: CLIENT_ID, supports_org_scope: true });
}

export function pollDeviceToken(http: OutboundHttp, consoleUrl: string, deviceCode: string) {
  return post<TokenAnswer>(http, `${consoleUrl}/console/auth/device/token`, {
    grant_type: DEVICE_GRANT,
    device_code: deviceCode,
    client_id: CLIENT_ID,
  });
}

export function refreshTokens(http: OutboundHttp, consoleUrl: string, refreshToken: string) {
  return post<TokenAnswer>(http, `${consoleUrl}/console/auth/device/token`, {
    grant_type: 'refresh_token',
    refresh_token: refreshToken,
    client_id: CLIENT_ID,
  });
}
