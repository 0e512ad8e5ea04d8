/** The console's device-flow endpoints, as `outpost login` and the instance's link call them. */
import { DeviceCode, deviceCodeAnswer, tokenAnswer, Tokens } from './console-answers';

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

/** POSTs JSON; a refusal is a `ConsoleCallError`, an answer is returned unchecked (the callers check it). */
async function post(url: string, body: object): Promise<unknown> {
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
  const answer: unknown = await res.json().catch(() => undefined);
  if (!res.ok) {
    const refusal = (answer ?? {}) as { error?: unknown; error_description?: unknown };
    const code = typeof refusal.error === 'string' ? refusal.error.slice(0, 200) : undefined;
    const said =
      typeof refusal.error_description === 'string' ? refusal.error_description.slice(0, 500) : code;
    throw new ConsoleCallError(said ?? `answered ${res.status}`, res.status, code);
  }
  return answer;
}

export async function requestDeviceCode(consoleUrl: string): Promise<DeviceCode> {
  const answer = await post(`${consoleUrl}/console/auth/device/code`, {
    client_id: CLIENT_ID,
    supports_org_scope: true,
  });
  return deviceCodeAnswer(consoleUrl, answer);
}

export async function pollDeviceToken(consoleUrl: string, deviceCode: string): Promise<Tokens> {
  const answer = await post(`${consoleUrl}/console/auth/device/token`, {
    grant_type: DEVICE_GRANT,
    device_code: deviceCode,
    client_id: CLIENT_ID,
  });
  return tokenAnswer(consoleUrl, answer);
}

export async function refreshTokens(consoleUrl: string, refreshToken: string): Promise<Tokens> {
  const answer = await post(`${consoleUrl}/console/auth/device/token`, {
    grant_type: 'refresh_token',
    refresh_token: refreshToken,
    client_id: CLIENT_ID,
  });
  return tokenAnswer(consoleUrl, answer);
}
