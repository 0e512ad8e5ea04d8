import { readdirSync } from 'node:fs';
import { createServer as createHttpServer } from 'node:http';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { freePort, startServer, waitForHealth } from '../../helpers/processes';
import { createEmptyDatabase, createTestDatabase } from '../../helpers/test-database';

const dataDir = () => mkdtempSync(join(tmpdir(), 'outpost-boot-'));

// Real processes on a possibly busy 2-core machine: the embedded database alone can take half a minute to start.
jest.setTimeout(300_000);

describe('boot, configuration and shutdown of `outpost serve`', () => {
  it('stops at a bad variable with one line naming it', async () => {
    const server = startServer({ PORT: 'abc', OUTPOST_DATA_DIR: dataDir() });
    expect(await server.exited).toBe(1);
    expect(server.output().trim()).toBe(
      'outpost: invalid configuration: PORT must be a whole number from 0 to 65535 (got "abc")',
    );
  });

  it('names OUTPOST_SURFACES when it lists an unknown surface', async () => {
    const server = startServer({ OUTPOST_SURFACES: 'instance,nope', OUTPOST_DATA_DIR: dataDir() });
    expect(await server.exited).toBe(1);
    expect(server.output()).toContain('OUTPOST_SURFACES must be a comma-separated list');
    expect(server.output()).not.toMatch(/\n\s+at /);
  });

  it('prints why it cannot start when the database is unreachable, and exits', async () => {
    const server = startServer({
      PORT: String(await freePort()),
      DATABASE_URL: `postgres://postgres@127.0.0.1:${await freePort()}/nothing`,
      DATABASE_CONNECT_RETRIES: '0',
      OUTPOST_DATA_DIR: dataDir(),
    });
    expect(await server.exited).toBe(1);
    expect(server.output()).toMatch(/outpost: cannot start: database unavailable \(ECONNREFUSED\)/);
  });

  it('names a database that does not exist, a HOST it cannot listen on, and a bad OUTPOST_WEB_URL', async () => {
    const missing = startServer({
      PORT: String(await freePort()),
      DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/outpost_no_such_database',
      DATABASE_CONNECT_RETRIES: '0',
      OUTPOST_DATA_DIR: dataDir(),
    });
    expect(await missing.exited).toBe(1);
    expect(missing.output()).toContain(
      'outpost: cannot start: database "outpost_no_such_database" does not exist (create it, or fix DATABASE_URL)',
    );
    expect(missing.output()).not.toMatch(/3D000|\n\s+at /);

    const database = await createEmptyDatabase();
    try {
      const badHost = startServer({
        PORT: String(await freePort()),
        HOST: '192.0.2.1', // TEST-NET-1: never an address of this machine
        DATABASE_URL: database.url,
        OUTPOST_DATA_DIR: dataDir(),
      });
      expect(await badHost.exited).toBe(1);
      expect(badHost.output()).toContain(
        'outpost: invalid configuration: HOST "192.0.2.1" is not an address of this machine',
      );
    } finally {
      await database.drop();
    }

    const badWebUrl = startServer({ OUTPOST_WEB_URL: 'javascript:alert(1)', OUTPOST_DATA_DIR: dataDir() });
    expect(await badWebUrl.exited).toBe(1);
    expect(badWebUrl.output().trim()).toBe(
      'outpost: invalid configuration: OUTPOST_WEB_URL must be a path starting with / or an http(s) URL (got "javascript:alert(1)")',
    );
  });

  it('on a port another server holds: says so and exits, and waiting for it fails rather than asking the other', async () => {
    const port = await freePort();
    const other = createHttpServer((_, res) => res.end('{"status":"ok"}'));
    await new Promise<void>((resolve) => other.listen(port, '127.0.0.1', resolve));
    const database = await createTestDatabase();
    try {
      const server = startServer({
        PORT: String(port),
        DATABASE_URL: database.url,
        OUTPOST_DATA_DIR: dataDir(),
      });
      await expect(waitForHealth(server)).rejects.toThrow(/stopped before it served/);
      expect(await server.exited).toBe(1);
      expect(server.output()).toContain('outpost: cannot start: the port is already in use');
    } finally {
      other.close();
      await database.drop();
    }
  });

  it('two processes on one empty database both start; migrations run once', async () => {
    const database = await createEmptyDatabase();
    try {
      // Started together, they share one secret key the way a fleet does (the database refuses a second one).
      const env = {
        DATABASE_URL: database.url,
        OUTPOST_PASSWORD: 'x',
        OUTPOST_SECRET_KEY: 'boot-test-secret-0123456789abcdef',
      };
      const a = startServer({ ...env, PORT: String(await freePort()), OUTPOST_DATA_DIR: dataDir() });
      const b = startServer({ ...env, PORT: String(await freePort()), OUTPOST_DATA_DIR: dataDir() });
      await Promise.all([waitForHealth(a), waitForHealth(b)]);
      const client = new Client({ connectionString: database.url });
      await client.connect();
      const rows = await client.query('SELECT name, count(*)::int AS n FROM migrations GROUP BY name');
      await client.end();
      const files = readdirSync(join(__dirname, '../../../src/database/migrations')).filter((f) =>
        f.endsWith('.ts'),
      );
      expect(rows.rows.length).toBe(files.length);
      for (const row of rows.rows) expect(row.n).toBe(1);
      a.child.kill('SIGTERM');
      b.child.kill('SIGTERM');
      expect(await a.exited).toBe(0);
      expect(await b.exited).toBe(0);
    } finally {
      await database.drop();
    }
  });

  it('on the embedded database: says where it is, survives kill -9, and stops with 0 on SIGTERM', async () => {
    const dir = dataDir();
    const port = String(await freePort());
    const first = startServer({ PORT: port, OUTPOST_DATA_DIR: dir, OUTPOST_PASSWORD: 'x' });
    await waitForHealth(first);
    expect(first.output()).toContain(`embedded PostgreSQL, data in ${join(dir, 'postgres')}`);
    first.child.kill('SIGKILL');
    await first.exited;
    const second = startServer({ PORT: port, OUTPOST_DATA_DIR: dir, OUTPOST_PASSWORD: 'x' });
    await waitForHealth(second);
    expect(second.output()).toContain('schema is up to date');
    second.child.kill('SIGTERM');
    expect(await second.exited).toBe(0);
  });
});
