import { INestApplication } from '@nestjs/common';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { stopEmbeddedDatabase } from '../../src/database/embedded';
import { addressOf, bootNode, NodeOptions } from './boot-node';
import { fleetOf, fleetSize, nodeOf, TestNode } from './fleet';
import { rememberSecret, shareSecret } from './shared-secret';
import { createTestDatabase } from './test-database';
import { TestClock } from './test-clock';

export const TEST_PASSWORD = 'test-password';

export interface TestApp {
  /** The first node: it serves every surface (with `OUTPOST_TEST_FLEET`, the only one serving the instance). */
  app: INestApplication;
  /** Every node of the app, the first one first: one, or `OUTPOST_TEST_FLEET` of them (see test/helpers/fleet.ts). */
  nodes: TestNode[];
  /**
   * `http://127.0.0.1:<port>`: the app really listens, so SSE, browsers and other processes can reach it. With
   * `OUTPOST_TEST_FLEET`, nginx in front of the nodes.
   */
  url: string;
  /** supertest against the app, without credentials. */
  http: ReturnType<typeof request>;
  clock: TestClock;
  dataDir: string;
  databaseUrl?: string;
  close(): Promise<void>;
}

export interface TestAppOptions extends NodeOptions {
  /** Extra environment for this app (restored after boot). */
  env?: Record<string, string | undefined>;
  /**
   * Reuse a database (a second "server process" on the same data); by default each app gets its own. Without its
   * own `OUTPOST_SECRET_KEY` in `env`, the app gets the secret key of the apps before it on that database.
   */
  databaseUrl?: string;
  /** Run on the embedded PostgreSQL of the app's data directory (the default of `npm start`), no DATABASE_URL. */
  embedded?: boolean;
  /** Keep state across a restart by handing the same directory to the next app. */
  dataDir?: string;
}

/** Basic credentials for the instance API with the test password. */
export function basic(password = TEST_PASSWORD, user = 'opencode'): string {
  return `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
}

/** Boots the whole AppModule on its own database, as `main` does, listening on a free loopback port. */
export async function createTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const ownDatabase = options.databaseUrl || options.embedded ? undefined : await createTestDatabase();
  const databaseUrl = options.databaseUrl ?? ownDatabase?.url;
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'outpost-test-'));
  const clock = new TestClock();
  const env = {
    DATABASE_URL: databaseUrl,
    OUTPOST_DATA_DIR: dataDir,
    OUTPOST_PASSWORD: TEST_PASSWORD,
    OPENCODE_SERVER_PASSWORD: undefined,
    OUTPOST_CONFIG_DIR: join(dataDir, 'config'),
    // opencode's global config of the machine's user stays out of tests (its own tests set these).
    XDG_CONFIG_HOME: join(dataDir, 'xdg-config'),
    OPENCODE_CONFIG: undefined,
    OPENCODE_CONFIG_CONTENT: undefined,
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    // Every test signs people up and starts device sign-ins from 127.0.0.1; the limits have tests of their own.
    OUTPOST_SIGNUPS_PER_HOUR: '1000000',
    // Tests sign many people up; the default (the first account only) has tests of its own (sign-in.e2e-spec.ts).
    OUTPOST_CONSOLE_SIGNUP: 'open',
    OUTPOST_DEVICE_CODES_PER_MINUTE: '1000000',
    HOST: '127.0.0.1',
    PORT: '0',
    // In a fleet run, two test files at a time with up to four nodes each stay under PostgreSQL's 100 connections
    // (20 a node did not: a loaded run's concurrent calls got 503 too many clients).
    ...(fleetSize() > 1 ? { DATABASE_POOL_MAX: '10' } : {}),
    ...options.env,
  };
  // A second app on a database another one used shares its secret key, as the nodes of a fleet do.
  shareSecret(env);
  const app = await bootNode(env, clock, options).catch(async (error: unknown) => {
    await ownDatabase?.drop();
    if (!options.dataDir) rmSync(dataDir, { recursive: true, force: true });
    throw error;
  });
  rememberSecret(env);
  const fleet =
    options.databaseUrl || options.embedded || options.dataDir ? undefined : await fleetOf(app, env, clock);
  const url = fleet?.url ?? addressOf(app);
  return {
    app,
    nodes: [nodeOf(app), ...(fleet?.nodes ?? [])],
    url,
    http: request(url),
    clock,
    dataDir,
    databaseUrl,
    async close() {
      await fleet?.close();
      // As a stopping server does (main.ts, OUTPOST_SHUTDOWN_GRACE_MS): a connection still open after a grace is
      // cut, or a client's socket that never sent a request (a dropped stream's client leaves one) holds the close.
      const server = app.getHttpServer() as { closeAllConnections(): void };
      const force = setTimeout(() => server.closeAllConnections(), 2_000);
      await app.close();
      clearTimeout(force);
      if (options.embedded) await stopEmbeddedDatabase(dataDir);
      await ownDatabase?.drop();
      if (!options.dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
