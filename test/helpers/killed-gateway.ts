import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { startGatewayServer } from './gateway-server';
import { ServerProcess } from './processes';
import { ScriptedModelServer } from './scripted-model-server';
import { createTestDatabase } from './test-database';

/** A gateway node that a test kills and starts again on the same database and data folder. */
export interface KilledGateway {
  /** Answers every call whole: `ok`, 10 input and 10 output tokens. */
  readonly upstream: ScriptedModelServer;
  readonly database: { url: string; drop: () => Promise<void> };
  readonly dataDir: string;
  /** The node started last. */
  readonly node: ServerProcess | undefined;
  /** Starts a node (`startGatewayServer`) on the database and the data folder, or on `dataDir` if given. */
  start(dataDir?: string): Promise<ServerProcess>;
  /**
   * Keeps the node's batches out of `table` until the returned function is called (`holdWrites`), so a kill is
   * sure to come before them.
   */
  holdWrites(table: string): Promise<() => Promise<void>>;
}

/**
 * The journals' tests: what a gateway process killed with SIGKILL left on its disk, written by the next. Call inside a
 * describe: the upstream, the database and the data folder (`outpost-<name>-…`) are made before its tests, and the
 * node killed and the rest removed after them.
 */
export function killedGateway(secret: string, name: string): KilledGateway {
  let upstream: ScriptedModelServer;
  let database: { url: string; drop: () => Promise<void> };
  let dataDir: string;
  let node: ServerProcess | undefined;

  beforeAll(async () => {
    upstream = await ScriptedModelServer.start();
    upstream.answerUnstreamed = true;
    upstream.fallback = { text: 'ok', usage: { input: 10, output: 10 } };
    database = await createTestDatabase();
    dataDir = mkdtempSync(join(tmpdir(), `outpost-${name}-`));
  });
  afterAll(async () => {
    node?.child.kill('SIGKILL');
    await upstream.close();
    await database.drop();
  });

  return {
    get upstream() {
      return upstream;
    },
    get database() {
      return database;
    },
    get dataDir() {
      return dataDir;
    },
    get node() {
      return node;
    },
    start: async (folder = dataDir) => {
      node = await startGatewayServer(upstream, database.url, 'sk-up', {
        OUTPOST_SECRET_KEY: secret,
        OUTPOST_DATA_DIR: folder,
      });
      return node;
    },
    holdWrites: (table) => holdWrites(database.url, table),
  };
}

/**
 * An outside transaction holds `table` in SHARE mode: a statement writing it waits before it takes any other lock
 * (PostgreSQL locks a statement's tables as it parses it), and nothing it would have written is written. The
 * returned function first ends the database sessions waiting for it (a killed node's batch is cancelled, not written
 * after the kill), then lets go.
 */
async function holdWrites(url: string, table: string): Promise<() => Promise<void>> {
  const client = new Client({ connectionString: url });
  await client.connect();
  await client.query('BEGIN');
  await client.query(`LOCK TABLE ${table} IN SHARE MODE`);
  const waiting = `FROM pg_stat_activity WHERE pg_backend_pid() = ANY (pg_blocking_pids(pid))`;
  // A session of the database that is neither waiting for this lock nor gone.
  const unsettled = `FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()
    AND backend_type = 'client backend' AND NOT (pg_backend_pid() = ANY (pg_blocking_pids(pid)))`;
  return async () => {
    // What the dead node sent just before the kill reaches its session and starts waiting first: each of its
    // sessions either waits for this lock or has ended (the database read the closed connection).
    for (let tries = 1; tries < 250; tries++) {
      if ((await client.query(`SELECT 1 ${unsettled}`)).rowCount === 0) break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const endWaiting = async () =>
      (await client.query(`SELECT pg_terminate_backend(pid) ${waiting}`)).rowCount ?? 0;
    for (let tries = 1; (await endWaiting()) > 0; tries++) {
      if (tries === 250) throw new Error(`sessions still wait for ${table} 5 s after they were ended`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    await client.query('ROLLBACK');
    await client.end();
  };
}

/** The id of a process that has exited: what a journal of a dead process is named by. */
export function deadProcessId(): number {
  return spawnSync(process.execPath, ['-e', '']).pid;
}
