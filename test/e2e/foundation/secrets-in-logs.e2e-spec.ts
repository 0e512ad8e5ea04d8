import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, ServerProcess, startServer, waitForHealth } from '../../helpers/processes';
import { createTestDatabase } from '../../helpers/test-database';
import { linkIn, SmtpInbox, startSmtpInbox } from '../../helpers/smtp-inbox';

jest.setTimeout(300_000);

const SERVER_PASSWORD = 'srv-secret-9c2e41f7aa';
const PERSON_PASSWORD = 'person-secret-5d8e2b';
const METRICS_TOKEN = 'metrics-secret-0b7d';
const SMTP_PASSWORD = 'smtp-secret-71c0e4';
const OIDC_CLIENT_SECRET = 'oidc-secret-3fa95d20';
const NEW_PASSWORD = 'new-password-secret-8b1d';

/**
 * A real `outpost serve` at LOG_LEVEL=trace through the flows that issue secrets; then not one of them may be in
 * what the process printed.
 */
describe('no secret reaches the logs (a real process at trace level)', () => {
  let server: ServerProcess;
  let database: { url: string; drop: () => Promise<void> };
  let smtp: SmtpInbox;
  const secrets: Record<string, string> = {
    SERVER_PASSWORD,
    PERSON_PASSWORD,
    METRICS_TOKEN,
    SMTP_PASSWORD,
    OIDC_CLIENT_SECRET,
    NEW_PASSWORD,
  };

  beforeAll(async () => {
    database = await createTestDatabase();
    smtp = await startSmtpInbox('outpost', SMTP_PASSWORD);
    server = startServer({
      PORT: String(await freePort()),
      DATABASE_URL: database.url,
      OUTPOST_PASSWORD: SERVER_PASSWORD,
      OUTPOST_METRICS_TOKEN: METRICS_TOKEN,
      OUTPOST_DATA_DIR: mkdtempSync(join(tmpdir(), 'outpost-secrets-')),
      LOG_LEVEL: 'trace',
      LOG_FORMAT: 'json',
      OUTPOST_SMTP_URL: smtp.url,
      OUTPOST_SMTP_FROM: 'outpost@example.com',
      // A provider that does not answer: the sign-in's failure is logged, never the client secret.
      OUTPOST_OIDC_ISSUER: 'http://127.0.0.1:9/realms/none',
      OUTPOST_OIDC_CLIENT_ID: 'outpost',
      OUTPOST_OIDC_CLIENT_SECRET: OIDC_CLIENT_SECRET,
    });
    await waitForHealth(server);
  });

  afterAll(async () => {
    server.child.kill('SIGTERM');
    await server.exited;
    await database.drop();
    await smtp.close();
  });

  const call = async (path: string, init: RequestInit = {}) => {
    const res = await fetch(`${server.url}${path}`, { redirect: 'manual', ...init });
    const text = await res.text();
    return { status: res.status, headers: res.headers, json: () => JSON.parse(text) as Record<string, any> }; // eslint-disable-line @typescript-eslint/no-explicit-any
  };
  const basic = (secret: string) => `Basic ${Buffer.from(`opencode:${secret}`).toString('base64')}`;

  it('pairing codes, session tokens and ?auth_token= values', async () => {
    const pair = (
      await call('/api/pair', { method: 'POST', headers: { authorization: basic(SERVER_PASSWORD) } })
    ).json();
    secrets.PAIRING_CODE = pair.code;
    const redeemed = await call(`/auth/connect/${pair.code}`, { headers: { accept: 'application/json' } });
    secrets.SESSION_TOKEN = redeemed.json().token;
    secrets.AUTH_TOKEN = Buffer.from(`opencode:${secrets.SESSION_TOKEN}`).toString('base64');
    const viaQuery = await call(`/api/info?auth_token=${encodeURIComponent(secrets.AUTH_TOKEN)}`);
    expect(viaQuery.status).toBe(200);
    const browser = (
      await call('/api/pair', { method: 'POST', headers: { authorization: basic(SERVER_PASSWORD) } })
    ).json();
    secrets.BROWSER_PAIRING_CODE = browser.code;
    const landed = await call(`/auth/connect/${browser.code}`, { headers: { accept: 'text/html' } });
    secrets.PAIRING_COOKIE = String(landed.headers.get('set-cookie')).split(';')[0].split('=')[1];
    expect((await call('/api/info', { headers: { authorization: basic('wrong-guess') } })).status).toBe(401);
  });

  it('console passwords, sign-in cookies, invitations, API keys, user tokens, device and user codes', async () => {
    const signup = await call('/console/api/auth/signup', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'ada@example.com', password: PERSON_PASSWORD }),
    });
    expect(signup.status).toBe(201);
    const cookie = String(signup.headers.get('set-cookie')).split(';')[0];
    secrets.CONSOLE_COOKIE = cookie.split('=')[1];
    const asPerson = { cookie, origin: server.url, 'content-type': 'application/json' };
    const org = (await call('/console/api/orgs', { headers: asPerson })).json()[0].id as string;

    const invite = (
      await call(`/console/api/orgs/${org}/invites`, {
        method: 'POST',
        headers: asPerson,
        body: JSON.stringify({ email: 'lin@example.com', role: 'member' }),
      })
    ).json();
    secrets.INVITE_TOKEN = String(invite.url).split('/').pop()!;
    // A signed-out browser following the link is sent to sign in, with the link in `next`.
    expect([302, 303]).toContain((await call(`/console/invites/${secrets.INVITE_TOKEN}`)).status);
    await call(`/console/login?next=${encodeURIComponent(`/console/invites/${secrets.INVITE_TOKEN}`)}`);

    const sa = (
      await call(`/console/api/orgs/${org}/service-accounts`, {
        method: 'POST',
        headers: asPerson,
        body: JSON.stringify({ name: 'ci' }),
      })
    ).json();
    const key = (
      await call(`/console/api/orgs/${org}/service-accounts/${sa.id}/keys`, {
        method: 'POST',
        headers: asPerson,
        body: JSON.stringify({ name: 'deploy', permission: 'all' }),
      })
    ).json();
    secrets.API_KEY = key.key;
    expect(
      (await call('/console/api/v2/config', { headers: { authorization: `Bearer ${key.key}` } })).status,
    ).toBe(200);
    expect((await call('/console/api/v2/config', { headers: { 'x-api-key': key.key } })).status).not.toBe(
      500,
    );
    const token = (
      await call('/console/api/tokens', {
        method: 'POST',
        headers: asPerson,
        body: JSON.stringify({ name: 'laptop' }),
      })
    ).json();
    secrets.USER_TOKEN = token.token;
    await call('/console/api/orgs', { headers: { authorization: `Bearer ${token.token}` } });

    const device = (
      await call('/console/auth/device/code', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ client_id: 'outpost-cli' }),
      })
    ).json();
    secrets.DEVICE_CODE = device.device_code;
    secrets.USER_CODE = device.user_code;
    secrets.USER_CODE_BARE = String(device.user_code).replace('-', '');
    await call('/console/auth/device/token', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `grant_type=urn:ietf:params:oauth:grant-type:device_code&device_code=${device.device_code}&client_id=outpost-cli`,
    });
    await call(`/console/device?user_code=${device.user_code}`, { headers: { cookie } });
    // Signed out, the device page sends the browser to sign in with the code inside `next`.
    await call(`/console/device?user_code=${device.user_code}`);
    await call(`/console/login?next=${encodeURIComponent(`/console/device?user_code=${device.user_code}`)}`);

    // A BYOK connection's credential: created, replaced, and sent in a refused body.
    secrets.CONNECTION_CREDENTIAL = 'sk-byok-first-4c1d9e77b2';
    secrets.CONNECTION_CREDENTIAL_NEW = 'sk-byok-second-0a8f3c5e61';
    secrets.CONNECTION_CREDENTIAL_REFUSED = 'sk-byok-refused-93be27d4f0';
    const connection = await call(`/console/api/orgs/${org}/connections`, {
      method: 'POST',
      headers: asPerson,
      body: JSON.stringify({
        name: 'Own key',
        base_url: 'https://llm.example/v1',
        schema: 'openai-chat',
        auth: { mode: 'header', header: 'x-api-key', credential: secrets.CONNECTION_CREDENTIAL },
        models: { m: { name: 'M' } },
      }),
    });
    expect(connection.status).toBe(201);
    const connectionId = connection.json().id as string;
    expect(
      (
        await call(`/console/api/orgs/${org}/connections/${connectionId}`, {
          method: 'PATCH',
          headers: asPerson,
          body: JSON.stringify({ auth: { credential: secrets.CONNECTION_CREDENTIAL_NEW } }),
        })
      ).status,
    ).toBe(200);
    expect(
      (
        await call(`/console/api/orgs/${org}/connections`, {
          method: 'POST',
          headers: asPerson,
          body: JSON.stringify({
            name: 'Bad',
            base_url: 'ftp://llm.example',
            schema: 'openai-chat',
            auth: { mode: 'bearer', credential: secrets.CONNECTION_CREDENTIAL_REFUSED },
            models: { m: { name: 'M' } },
          }),
        })
      ).status,
    ).toBe(400);

    // A failed sign-in with the right e-mail and a wrong password carries that password too.
    await call('/console/api/auth/login', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'ada@example.com', password: `${PERSON_PASSWORD}-typo` }),
    });
    expect((await call('/metrics', { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).status).toBe(
      200,
    );
  });

  it('emailed invitation and password reset links, new passwords, the SMTP password, the OIDC client secret', async () => {
    const json = { 'content-type': 'application/json' };
    const forgot = await call('/console/api/auth/password-reset', {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ email: 'ada@example.com' }),
    });
    expect(forgot.status).toBe(202);
    const [mail] = await smtp.mailsTo('ada@example.com');
    const link = new URL(linkIn(mail));
    secrets.RESET_TOKEN = link.pathname.split('/').pop()!;
    expect((await call(link.pathname)).status).toBe(200);
    expect((await call(`/console/api/auth/password-reset/${secrets.RESET_TOKEN}`)).status).toBe(200);
    const done = await call('/console/api/auth/password-reset/complete', {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ token: secrets.RESET_TOKEN, password: NEW_PASSWORD }),
    });
    expect(done.status).toBe(204);
    expect((await call('/console/auth/oidc/start')).status).toBe(303);
    const emailed = await smtp.mailsTo('lin@example.com');
    expect(linkIn(emailed[0])).toContain(secrets.INVITE_TOKEN);
  });

  it('the output holds none of them (and the flows were logged at all)', () => {
    const output = server.output();
    expect(output).toContain('request completed');
    expect(output).toContain('[redacted]');
    const found = Object.entries(secrets).filter(([, value]) => value && output.includes(value));
    expect(found.map(([name]) => name)).toEqual([]);
  });
});

describe('/metrics', () => {
  it('is served only with its token, in Prometheus format, with request counts by route', async () => {
    const database = await createTestDatabase();
    const port = String(await freePort());
    const env = { PORT: port, DATABASE_URL: database.url, OUTPOST_PASSWORD: 'x', LOG_LEVEL: 'warn' };
    const closed = startServer({ ...env, OUTPOST_DATA_DIR: mkdtempSync(join(tmpdir(), 'outpost-metrics-')) });
    await waitForHealth(closed);
    expect((await fetch(`${closed.url}/metrics`)).status).toBe(404);
    closed.child.kill('SIGTERM');
    await closed.exited;

    const open = startServer({
      ...env,
      OUTPOST_METRICS_TOKEN: 'scrape-me',
      OUTPOST_DATA_DIR: mkdtempSync(join(tmpdir(), 'outpost-metrics-')),
    });
    try {
      await waitForHealth(open);
      const missing = await fetch(`${open.url}/api/session/ses_x`, {
        headers: { authorization: 'Basic b3BlbmNvZGU6eA==' },
      });
      expect((await fetch(`${open.url}/metrics`)).status).toBe(401);
      expect((await fetch(`${open.url}/metrics`, { headers: { authorization: 'Bearer nope' } })).status).toBe(
        401,
      );
      const res = await fetch(`${open.url}/metrics`, { headers: { authorization: 'Bearer scrape-me' } });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
      const text = await res.text();
      expect(text).toMatch(/outpost_http_requests_total\{route="\/health",method="GET",status="200"\} \d+/);
      expect(text).toContain(`route="/api/session/:sessionID",method="GET",status="${missing.status}"`);
      expect(text).toMatch(/outpost_http_request_duration_seconds_bucket/);
      expect(text).toMatch(/outpost_db_pool_connections \d+/);
      expect(text).toMatch(/outpost_event_stream_clients 0/);
      expect(text).toMatch(/outpost_drains_running 0/);
      expect(text).toMatch(/outpost_process_\w*resident_memory_bytes \d+/);
    } finally {
      open.child.kill('SIGTERM');
      await open.exited;
      await database.drop();
    }
  });
});
