/** The console's device-flow endpoints, as `outpost login` and the instance's link call them. */
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

async function post<T>(url: string, body: object): Promise<T> {
  let res: Response;
  try {
    res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  } catch {
    throw new ConsoleCallError(`no console answers at ${new URL(url).origin}`, 0);
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

export function requestDeviceCode(consoleUrl: string) {
  return post<{
    device_code: string;
    user_code: string;
    verification_uri: string;
    verification_uri_complete: string;
    expires_in: number;
    interval: number;
  }>(`${consoleUrl}/console/auth/device/code`, { client_id: CLIENT_ID, supports_org_scope: true });
}

export function pollDeviceToken(consoleUrl: string, deviceCode: string) {
  return post<TokenAnswer>(`${consoleUrl}/console/auth/device/token`, {
    grant_type: DEVICE_GRANT,
    device_code: deviceCode,
    client_id: CLIENT_ID,
  });
}

export function refreshTokens(consoleUrl: string, refreshToken: string) {
  return post<TokenAnswer>(`${consoleUrl}/console/auth/device/token`, {
    grant_type: 'refresh_token',
    refresh_token: refreshToken,
    client_id: CLIENT_ID,
  });
}
