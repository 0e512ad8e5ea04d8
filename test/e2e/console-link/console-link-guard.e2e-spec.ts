import { mkdtempSync } from 'node:fs';
import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeLink } from '@/modules/console-link/console-link.store';
import { runCli } from '../../helpers/outpost-cli';
import { api } from '../../helpers/prompt';
import { basic, createTestApp, TestApp } from '../../helpers/test-app';

/**
 * The console an instance signs in to is named by a person, so it is called through the outbound guard: one on
 * loopback, as here, is refused unless the operator allows it with OUTPOST_CONNECTIONS_ALLOW, before any connection.
 */
describe('the console link goes through the outbound guard', () => {
  let fakeConsole: Server;
  let consoleUrl: string;
  let sockets = 0;
  let instance: TestApp;
  let dataDir: string;

  beforeAll(async () => {
    // Stands in for a console: any connection to it is the guard failing.
    fakeConsole = createServer((_req, res) => res.writeHead(500).end());
    fakeConsole.on('connection', () => sockets++);
    await new Promise<void>((resolve) => fakeConsole.listen(0, '127.0.0.1', resolve));
    consoleUrl = `http://127.0.0.1:${(fakeConsole.address() as AddressInfo).port}`;
    dataDir = mkdtempSync(join(tmpdir(), 'outpost-guarded-link-'));
    const now = Date.now();
    writeLink(dataDir, {
      consoleUrl,
      orgId: 'org_1',
      accessToken: 'access',
      refreshToken: 'refresh',
      expiresAt: now, // due for a refresh at once
      linkedAt: now,
    });
    instance = await createTestApp({ dataDir, env: { OUTPOST_CONSOLE_POLL_MS: '600000' } });
  });
  afterAll(async () => {
    await instance?.close();
    fakeConsole.close();
  });

  it('a linked instance does not call a console on loopback, and says why', async () => {
    const info = (await api(instance).get('/api/info')).body.console;
    expect(info).toMatchObject({ state: 'linked', console: consoleUrl });
    expect(info.problem).toMatch(/127\.0\.0\.1 is an internal address.*OUTPOST_CONNECTIONS_ALLOW/);
    expect(sockets).toBe(0);
  });

  it("the web app's sign-in to a console on loopback is a 400 naming the field and the variable", async () => {
    const res = await instance.http
      .post('/api/console-link/sign-in')
      .set('authorization', basic())
      .send({ console: consoleUrl });
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.body)).toMatch(/internal address.*OUTPOST_CONNECTIONS_ALLOW/);
    expect(JSON.stringify(res.body)).toContain('console');
    expect(sockets).toBe(0);
  });

  it('outpost login to a console on loopback fails the same way unless OUTPOST_CONNECTIONS_ALLOW allows it', async () => {
    const refused = await runCli(mkdtempSync(join(tmpdir(), 'outpost-cli-')), ['login', consoleUrl], {
      OUTPOST_CONNECTIONS_ALLOW: undefined,
    });
    expect(refused.code).toBe(1);
    expect(refused.output).toMatch(
      /outpost login: 127\.0\.0\.1 is an internal address.*OUTPOST_CONNECTIONS_ALLOW/,
    );
    expect(sockets).toBe(0);

    const allowed = await runCli(mkdtempSync(join(tmpdir(), 'outpost-cli-')), ['login', consoleUrl]);
    expect(allowed.code).toBe(1);
    expect(allowed.output).toContain(
      `outpost login: the console at ${new URL(consoleUrl).origin} answered 500`,
    );
    expect(sockets).toBe(1);
  });
});
