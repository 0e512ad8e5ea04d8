import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eventually } from '../../helpers/eventually';
import { freePort, startServer, waitForHealth } from '../../helpers/processes';
import { createEmptyDatabase, createTestDatabase, query } from '../../helpers/test-database';

const dataDir = () => mkdtempSync(join(tmpdir(), 'outpost-probes-'));

/** What a load balancer and an orchestrator read, and how a node starts and stops among others. */
describe('probes, drains and migrations with many nodes', () => {
  it('GET /health/live answers while the process runs; /health/ready also says database, migrations, draining', async () => {
    const database = await createTestDatabase();
    const server = startServer({
      DATABASE_URL: database.url,
      PORT: String(await freePort()),
      OUTPOST_DATA_DIR: dataDir(),
      OUTPOST_SURFACES: 'console,inference',
      OUTPOST_DRAIN_DELAY_MS: '1500',
    });
    try {
      await waitForHealth(server);
      const live = await fetch(`${server.url}/health/live`);
      expect({ status: live.status, body: await live.json() }).toEqual({
        status: 200,
        body: { status: 'ok' },
      });
      const ready = await fetch(`${server.url}/health/ready`);
      expect(ready.headers.get('cache-control')).toBe('no-store');
      expect({ status: ready.status, body: await ready.json() }).toEqual({
        status: 200,
        body: { status: 'ok', database: 'up', migrations: 'applied', draining: false },
      });

      // SIGTERM: not ready at once, still serving for the drain delay, then gone.
      server.child.kill('SIGTERM');
      // (The node closes its idle connections on SIGTERM: a request that met one's close is asked again.)
      const draining = await eventually(
        () => fetch(`${server.url}/health/ready`).catch(() => undefined),
        (res) => res?.status === 503,
        1_000,
      );
      expect(draining?.status).toBe(503);
      expect(await draining!.json()).toMatchObject({ draining: true, database: 'up' });
      expect((await fetch(`${server.url}/health/live`)).status).toBe(200);
      const signup = await fetch(`${server.url}/console/api/auth/signup`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'drain@example.com', password: 'correct horse battery' }),
      });
      expect(signup.status).toBe(201);
      expect(await server.exited).toBe(0);
    } finally {
      server.child.kill('SIGKILL');
      await database.drop();
    }
  });

  it('three nodes starting together on an empty database run each migration once', async () => {
    const database = await createEmptyDatabase();
    const servers = await Promise.all(
      [0, 1, 2].map(async () =>
        startServer({
          DATABASE_URL: database.url,
          PORT: String(await freePort()),
          OUTPOST_DATA_DIR: dataDir(),
          OUTPOST_SURFACES: 'console,inference',
          // A fleet's nodes share one secret key (each its own would be refused: test/e2e/fleet/secret-key).
          OUTPOST_SECRET_KEY: 'probes-fleet-secret-0123456789abcdef',
        }),
      ),
    );
    try {
      await Promise.all(servers.map((server) => waitForHealth(server)));
      const rows = await query<{ name: string; n: number }>(
        database.url,
        'SELECT name, count(*)::int AS n FROM migrations GROUP BY name HAVING count(*) > 1',
      );
      expect(rows).toEqual([]);
      const [{ n }] = await query<{ n: number }>(database.url, 'SELECT count(*)::int AS n FROM migrations');
      expect(n).toBeGreaterThan(20);
      for (const server of servers) expect((await fetch(`${server.url}/health/ready`)).status).toBe(200);
    } finally {
      for (const server of servers) server.child.kill('SIGKILL');
      await Promise.all(servers.map((server) => server.exited));
      await database.drop();
    }
  });

  it('a node older than the schema refuses to start, in one line', async () => {
    const database = await createTestDatabase();
    await query(
      database.url,
      "INSERT INTO migrations (timestamp, name) VALUES (1899999999999, 'FromTheFuture1899999999999')",
    );
    const server = startServer({
      DATABASE_URL: database.url,
      PORT: String(await freePort()),
      OUTPOST_DATA_DIR: dataDir(),
      OUTPOST_SURFACES: 'console',
    });
    try {
      expect(await server.exited).toBe(1);
      const lines = server
        .output()
        .split('\n')
        .filter((line) => line.startsWith('outpost: '));
      expect(lines).toEqual([
        'outpost: cannot start: the database schema is newer than this Outpost (it has migration FromTheFuture1899999999999); upgrade Outpost, or use another database',
      ]);
    } finally {
      server.child.kill('SIGKILL');
      await database.drop();
    }
  });
});
