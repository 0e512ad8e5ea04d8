import { mkdtempSync } from 'node:fs';
import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../../helpers/outpost-cli';
import { freePort, ServerProcess, startServer, waitForHealth } from '../../helpers/processes';
import { pollUntil } from '../../helpers/prompt';
import { at, projectDir } from '../../helpers/project-dir';
import { basic } from '../../helpers/test-app';
import { createTestDatabase } from '../../helpers/test-database';

type Answer = { status: number; body: unknown };

/** A "console" on loopback whose device-flow answers the test scripts; it records when it was polled. */
class StubConsole {
  code: () => Answer = () => ({ status: 200, body: {} });
  token: () => Answer = () => ({ status: 400, body: { error: 'authorization_pending' } });
  readonly polls: number[] = [];
  private server!: Server;

  async start(): Promise<this> {
    this.server = createServer((req: IncomingMessage, res: ServerResponse) => {
      req.resume();
      req.on('end', () => {
        const answer =
          req.url === '/console/auth/device/code'
            ? this.code()
            : req.url === '/console/auth/device/token'
              ? (this.polls.push(Date.now()), this.token())
              : { status: 404, body: {} };
        res.writeHead(answer.status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(answer.body));
      });
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return this;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

const goodCode = (extra: object = {}) => ({
  status: 200,
  body: {
    device_code: 'dc_1',
    user_code: 'WXYZ-1234',
    verification_uri: '/console/device',
    verification_uri_complete: '/console/device?user_code=WXYZ-1234',
    expires_in: 600,
    interval: 1,
    ...extra,
  },
});

describe('a console whose answers cannot be trusted, against a real server process', () => {
  let stub: StubConsole;
  let server: ServerProcess;
  let dataDir: string;
  let dropDatabase: () => Promise<void>;

  beforeAll(async () => {
    stub = await new StubConsole().start();
    const database = await createTestDatabase();
    dropDatabase = database.drop;
    dataDir = mkdtempSync(join(tmpdir(), 'outpost-untrusted-console-'));
    server = startServer({
      DATABASE_URL: database.url,
      OUTPOST_PASSWORD: 'test-password',
      OUTPOST_DATA_DIR: dataDir,
      OUTPOST_CONFIG_DIR: join(dataDir, 'config'),
      OUTPOST_CONNECTIONS_ALLOW: '127.0.0.1',
      PORT: String(await freePort()),
    });
    await waitForHealth(server);
  });
  afterAll(async () => {
    server?.child.kill('SIGKILL');
    await stub.close();
    await dropDatabase();
  });

  const call = async (path: string, body?: object) => {
    const res = await fetch(`${server.url}${path}`, {
      method: body ? 'POST' : 'GET',
      headers: { authorization: basic(), 'content-type': 'application/json' },
      body: body ? JSON.stringify(body) : undefined,
    });
    return { status: res.status, body: (await res.json()) as Record<string, any> }; // eslint-disable-line @typescript-eslint/no-explicit-any
  };
  const alive = async () => {
    expect(server.child.exitCode).toBeNull();
    expect((await fetch(`${server.url}/health`)).status).toBe(200);
  };

  it('a device-code answer of `200 {}` is a 400 naming the console and the field, and the server keeps serving', async () => {
    stub.code = () => ({ status: 200, body: {} });
    const res = await call('/api/console-link/sign-in', { console: stub.url });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      _tag: 'InvalidRequestError',
      field: 'console',
      kind: 'Body',
      message: `the console at ${stub.url} answered without device_code (a string); is it an Outpost console?`,
    });
    expect((await call('/api/console-link')).body.pending).toBeNull();
    await alive();
  });

  it('an answer without expires_in is refused the same way', async () => {
    stub.code = () => goodCode({ expires_in: undefined });
    const res = await call('/api/console-link/sign-in', { console: stub.url });
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/without expires_in/);
  });

  it('an interval of 0 is polled once a second at most, and an expiry of days is cut to an hour', async () => {
    stub.polls.length = 0;
    stub.code = () => goodCode({ interval: 0, expires_in: 9_999_999 });
    const started = Date.now();
    const res = await call('/api/console-link/sign-in', { console: stub.url });
    expect(res.status).toBe(200);
    expect(Date.parse(res.body.pending.expiresAt)).toBeLessThanOrEqual(started + 3600_000 + 5_000);
    await pollUntil('three polls', async () => stub.polls.length >= 3);
    const gaps = stub.polls.slice(1, 3).map((at, i) => at - stub.polls[i]);
    for (const gap of gaps) expect(gap).toBeGreaterThanOrEqual(950);
    await alive();
  });

  it('a token answer without tokens ends the sign-in with an error naming the console, not a crash', async () => {
    stub.token = () => ({ status: 200, body: { token_type: 'bearer' } });
    stub.code = () => goodCode();
    expect((await call('/api/console-link/sign-in', { console: stub.url })).status).toBe(200);
    let view: Record<string, any> = {}; // eslint-disable-line @typescript-eslint/no-explicit-any
    await pollUntil('the sign-in to end', async () => {
      view = (await call('/api/console-link')).body;
      return view.error !== null;
    });
    expect(view.error).toContain(stub.url);
    expect(view.error).toContain('access_token');
    expect(view.link.state).toBe('unlinked');
    await alive();
  });

  it('a promise rejected with no handler (a plugin that leaves one) is logged with a ref, and the server keeps serving', async () => {
    const dir = projectDir({
      'outpost.json': JSON.stringify({ plugins: ['./plugins/careless.mjs'] }),
      'plugins/careless.mjs':
        "Promise.reject(new Error('left unhandled by a plugin'));\nexport const name = 'careless';\n",
    });
    const res = await fetch(`${server.url}/api/plugin?${at(dir)}`, { headers: { authorization: basic() } });
    expect(res.status).toBe(200);
    await pollUntil('the rejection logged', async () =>
      /unhandled rejection err_[0-9a-f]{12}/.test(server.output()),
    );
    expect(server.output()).toContain('left unhandled by a plugin');
    await alive();
    expect(
      (await fetch(`${server.url}/api/plugin?${at(dir)}`, { headers: { authorization: basic() } })).status,
    ).toBe(200);
  });

  it('outpost login against the same console says what was wrong and exits 1', async () => {
    stub.code = () => ({ status: 200, body: {} });
    const cliData = mkdtempSync(join(tmpdir(), 'outpost-untrusted-cli-'));
    const { code, output } = await runCli(cliData, ['login', stub.url]);
    expect(code).toBe(1);
    expect(output).toContain(`the console at ${stub.url} answered without device_code`);
  });
});
