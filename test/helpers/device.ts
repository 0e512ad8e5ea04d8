import type { DeviceCodeResponse } from '../../src/modules/device/device-flow.service';
import request from 'supertest';
import { Person } from './console';
import { TestApp } from './test-app';

export const DEVICE_GRANT = 'urn:ietf:params:oauth:grant-type:device_code';

export type DeviceCode = DeviceCodeResponse;

/** `POST /console/auth/device/code` as opencode sends it (JSON), or form-encoded with `form: true`. */
export async function requestCode(
  t: TestApp,
  body: Record<string, unknown> = { client_id: 'opencode-cli', supports_org_scope: true },
  form = false,
): Promise<DeviceCode> {
  const req = t.http.post('/console/auth/device/code');
  const res = await (form ? req.type('form').send(body as Record<string, string>) : req.send(body));
  if (res.status !== 200) throw new Error(`device code ${res.status} ${JSON.stringify(res.body)}`);
  return res.body as DeviceCode;
}

/** What opencode sends on every console request. */
export const OPENCODE_USER_AGENT = 'opencode/beta/1.2.3/test';

export function pollToken(t: TestApp, deviceCode: string, clientId = 'opencode-cli') {
  return t.http
    .post('/console/auth/device/token')
    .set('user-agent', OPENCODE_USER_AGENT)
    .send({ grant_type: DEVICE_GRANT, device_code: deviceCode, client_id: clientId });
}

export function refreshToken(t: TestApp, refresh: string, clientId = 'opencode-cli') {
  return t.http
    .post('/console/auth/device/token')
    .send({ grant_type: 'refresh_token', refresh_token: refresh, client_id: clientId });
}

/** The CSRF cookie and form token of a page, for posting its forms the way a browser does. */
export function formState(res: request.Response): { csrf: string; cookie?: string } {
  const csrf = /name="csrf" value="([^"]+)"/.exec(res.text)?.[1];
  if (!csrf) throw new Error(`no CSRF token in the page (${res.status}): ${res.text.slice(0, 300)}`);
  const cookie = ([] as string[])
    .concat(res.headers['set-cookie'] ?? [])
    .find((line) => line.startsWith('outpost_csrf='))
    ?.split(';')[0];
  return { csrf, cookie };
}

/** A page-driving browser stand-in for one person: their sign-in cookie plus the CSRF cookie once set. */
export class PageSession {
  private csrfCookie: string | undefined;

  constructor(
    private readonly t: TestApp,
    private sessionCookie?: string,
  ) {}

  private cookies(): string {
    return [this.sessionCookie, this.csrfCookie].filter(Boolean).join('; ');
  }

  private remember(res: request.Response): request.Response {
    for (const line of ([] as string[]).concat(res.headers['set-cookie'] ?? [])) {
      const pair = line.split(';')[0];
      if (pair.startsWith('outpost_csrf=')) this.csrfCookie = pair;
      if (pair.startsWith('outpost_console=')) this.sessionCookie = pair.endsWith('=') ? undefined : pair;
    }
    return res;
  }

  async get(path: string): Promise<request.Response> {
    return this.remember(await this.t.http.get(path).set('cookie', this.cookies()));
  }

  /** Posts a form of `page` (a response that rendered it) with its CSRF token. */
  async submit(page: request.Response, path: string, fields: Record<string, string>) {
    const { csrf } = formState(page);
    const res = await this.t.http
      .post(path)
      .set('cookie', this.cookies())
      .set('origin', this.t.url)
      .type('form')
      .send({ csrf, ...fields });
    return this.remember(res);
  }
}

export function pagesOf(t: TestApp, person: Person): PageSession {
  return new PageSession(t, person.cookie);
}

/** Approves `userCode` on the device page as `person` (picking `org` when the client asked for a workspace). */
export async function approve(t: TestApp, person: Person, userCode: string, org?: string) {
  const pages = pagesOf(t, person);
  const page = await pages.get(`/console/device?user_code=${encodeURIComponent(userCode)}`);
  if (page.status !== 200) throw new Error(`device page ${page.status}: ${page.text.slice(0, 500)}`);
  const res = await pages.submit(page, '/console/device', {
    user_code: userCode,
    action: 'approve',
    ...(org ? { org } : {}),
  });
  if (res.status !== 200) throw new Error(`approve ${res.status}: ${res.text.slice(0, 500)}`);
  return res;
}

export async function deny(t: TestApp, person: Person, userCode: string) {
  const pages = pagesOf(t, person);
  const page = await pages.get(`/console/device?user_code=${encodeURIComponent(userCode)}`);
  return pages.submit(page, '/console/device', { user_code: userCode, action: 'deny' });
}

/** A whole sign-in: code, approval, first poll. Returns the token response body. */
export async function signInDevice(t: TestApp, person: Person, org?: string) {
  const code = await requestCode(
    t,
    org ? { client_id: 'opencode-cli', supports_org_scope: true } : { client_id: 'opencode-cli' },
  );
  await approve(t, person, code.user_code, org);
  const res = await pollToken(t, code.device_code);
  if (res.status !== 200) throw new Error(`token ${res.status} ${JSON.stringify(res.body)}`);
  return res.body as {
    access_token: string;
    refresh_token: string;
    expires_in: number;
    org_id: string | null;
    token_type: string;
  };
}
