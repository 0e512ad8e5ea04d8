import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, ServerProcess, startServer, waitForHealth } from '../../helpers/processes';
import { TcpProxy } from '../../helpers/tcp-proxy';
import { createTestDatabase, query, readInfo } from '../../helpers/test-database';

/** Polls `read` until `done` says so, or the time is up; answers the last value. */
async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

let counter = 0;
const signup = (url: string) =>
  fetch(`${url}/console/api/auth/signup`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: `outage${++counter}@example.com`, password: 'correct horse battery' }),
  });

describe('when the database goes away', () => {
  it('requests get 503 ServiceUnavailableError with Retry-After, and the server recovers by itself once it is back', async () => {
    const database = await createTestDatabase();
    const target = new URL(database.url);
    const proxy = await new TcpProxy(target.hostname, Number(target.port)).start();
    const viaProxy = new URL(database.url);
    viaProxy.port = String(proxy.port);
    const server = startServer({
      DATABASE_URL: viaProxy.toString(),
      PORT: String(await freePort()),
      OUTPOST_DATA_DIR: mkdtempSync(join(tmpdir(), 'outpost-outage-')),
      OUTPOST_SURFACES: 'console,inference',
      OUTPOST_SIGNUPS_PER_HOUR: '1000',
    });
    try {
      await waitForHealth(server);
      expect((await signup(server.url)).status).toBe(201);

      await proxy.cut();
      const refused = await signup(server.url);
      expect(refused.status).toBe(503);
      expect(refused.headers.get('retry-after')).toBe('5');
      expect(await refused.json()).toMatchObject({ _tag: 'ServiceUnavailableError', service: 'database' });

      await proxy.restore();
      const back = await until(
        () => signup(server.url),
        (res) => res.status === 201,
        15_000,
      );
      expect(back.status).toBe(201);
      expect(server.output()).not.toContain('unexpected error');
    } finally {
      server.child.kill('SIGKILL');
      await proxy.cut();
      await database.drop();
    }
  });

  it('a database that takes no connections (55000, not a code on any list) gets 503 with Retry-After, then recovers', async () => {
    const database = await createTestDatabase();
    const name = new URL(database.url).pathname.slice(1);
    const { adminUrl } = readInfo();
    const server = startServer({
      DATABASE_URL: database.url,
      PORT: String(await freePort()),
      OUTPOST_DATA_DIR: mkdtempSync(join(tmpdir(), 'outpost-no-connections-')),
      OUTPOST_SURFACES: 'console,inference',
      OUTPOST_SIGNUPS_PER_HOUR: '1000',
    });
    try {
      await waitForHealth(server);
      expect((await signup(server.url)).status).toBe(201);

      // "database … is not currently accepting connections" to every new connection; the open ones are ended.
      await query(adminUrl, `ALTER DATABASE "${name}" ALLOW_CONNECTIONS false`);
      await until(
        () =>
          query(adminUrl, `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1`, [
            name,
          ]),
        (rows) => rows.length === 0,
        10_000,
      );
      for (let i = 0; i < 5; i++) {
        const refused = await signup(server.url);
        expect(refused.status).toBe(503);
        expect(refused.headers.get('retry-after')).toBe('5');
        expect(await refused.json()).toMatchObject({ _tag: 'ServiceUnavailableError', service: 'database' });
      }

      await query(adminUrl, `ALTER DATABASE "${name}" ALLOW_CONNECTIONS true`);
      const back = await until(
        () => signup(server.url),
        (res) => res.status === 201,
        15_000,
      );
      expect(back.status).toBe(201);
      expect(server.output()).not.toContain('unexpected error');
    } finally {
      server.child.kill('SIGKILL');
      await query(adminUrl, `ALTER DATABASE "${name}" ALLOW_CONNECTIONS true`);
      await database.drop();
    }
  });

  it('the embedded PostgreSQL, killed under a running server, is restarted within 10 s with a log line', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'outpost-embedded-outage-'));
    const server: ServerProcess = startServer({
      PORT: String(await freePort()),
      OUTPOST_DATA_DIR: dataDir,
      OUTPOST_SURFACES: 'console',
      OUTPOST_SIGNUPS_PER_HOUR: '1000',
    });
    try {
      await waitForHealth(server);
      expect((await signup(server.url)).status).toBe(201);
      const pid = Number(readFileSync(join(dataDir, 'postgres', 'postmaster.pid'), 'utf8').split('\n')[0]);
      process.kill(pid, 'SIGKILL');
      const killedAt = Date.now();
      // A backend of a pooled connection may outlive its killed postmaster for a moment and answer one more call,
      // so what is waited for is the restart itself, then a call on the new server.
      const RESTARTED = 'the embedded PostgreSQL stopped; restarting it on 127.0.0.1:';
      const output = await until(
        () => Promise.resolve(server.output()),
        (text) => text.includes(RESTARTED),
        20_000,
      );
      expect(output).toContain(RESTARTED);
      const back = await until(
        () => signup(server.url),
        (res) => res.status === 201,
        20_000,
      );
      expect(back.status).toBe(201);
      expect(Date.now() - killedAt).toBeLessThan(10_000);
      const newPid = Number(readFileSync(join(dataDir, 'postgres', 'postmaster.pid'), 'utf8').split('\n')[0]);
      expect(newPid).not.toBe(pid);
    } finally {
      server.child.kill('SIGTERM');
      await server.exited;
    }
  });
});
