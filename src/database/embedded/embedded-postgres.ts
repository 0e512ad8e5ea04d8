import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
} from 'node:fs';
import { writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { Client } from 'pg';
import { asDatabaseUser, checkRootSupport, postgresBinDir } from './postgres-binaries';
import { isAlive, runningPostmaster } from './postmaster';

/** Who uses the embedded server: the Outpost server, or a short command (`console create-user`, `pair`, …). */
export type EmbeddedRole = 'server' | 'command';

interface Owner {
  pid: number;
  role: EmbeddedRole;
}

const USER = 'outpost';
const DATABASE = 'outpost';
const PASSWORD_FILE = 'outpost-password';
const START_TIMEOUT_MS = 60_000;
/** How often the server process looks whether the database it owns is still running. */
export const WATCH_MS = 2_000;

export class DataFolderInUseError extends Error {}

/**
 * A real PostgreSQL server on the data folder `<dataDir>/postgres`, shared by every Outpost process that uses that
 * folder. The first process starts it (listening on a free loopback port, recorded by PostgreSQL in
 * `postmaster.pid`) and owns it: it stops it when it ends. Later processes find it there and connect as guests;
 * a second server refuses in one line. A server whose owner died (kill -9) is adopted by the next server.
 */
export class EmbeddedPostgres {
  private owning = false;
  /** The port it listens on: kept across restarts, so the connection pool's URL stays right. */
  private port: number | undefined;
  private watchdog: NodeJS.Timeout | undefined;
  private reviving = false;

  constructor(
    readonly dataDir: string,
    private readonly role: EmbeddedRole,
    private readonly log: (line: string) => void = () => undefined,
  ) {}

  get clusterDir(): string {
    return join(this.dataDir, 'postgres');
  }

  /** Starts or joins the server and answers the URL of Outpost's database on it. */
  async acquire(): Promise<string> {
    checkRootSupport();
    mkdirSync(this.dataDir, { recursive: true, mode: 0o700 });
    if (!existsSync(join(this.clusterDir, 'PG_VERSION'))) this.initialise();
    const password = readFileSync(join(this.clusterDir, PASSWORD_FILE), 'utf8').trim();
    const port = (this.port = await this.joinOrStart());
    const url = `postgres://${USER}:${encodeURIComponent(password)}@127.0.0.1:${port}/${DATABASE}`;
    await this.ensureDatabase(url);
    return url;
  }

  /**
   * Restarts the database, on its port, if it stops under the server that owns it (killed, crashed): checked every
   * WATCH_MS, so it is back within seconds; meanwhile requests get 503 and the pool reconnects by itself.
   */
  watch(): void {
    if (this.watchdog || this.role !== 'server') return;
    this.watchdog = setInterval(() => void this.revive(), WATCH_MS);
    this.watchdog.unref();
  }

  private async revive(): Promise<void> {
    if (!this.owning || this.reviving || runningPostmaster(this.clusterDir)) return;
    this.reviving = true;
    try {
      this.log(`the embedded PostgreSQL stopped; restarting it on 127.0.0.1:${this.port}`);
      if ((await this.start(this.port)) === undefined)
        this.log(
          `the embedded PostgreSQL did not restart; trying again (see ${join(this.dataDir, 'postgres.log')})`,
        );
    } catch (error) {
      this.log(`the embedded PostgreSQL did not restart: ${(error as Error).message}`);
    } finally {
      this.reviving = false;
    }
  }

  /** Stops the server if this process started or adopted it; a guest leaves it running. */
  async release(): Promise<void> {
    clearInterval(this.watchdog);
    this.watchdog = undefined;
    if (!this.owning) return;
    this.owning = false;
    const running = runningPostmaster(this.clusterDir);
    if (running) {
      process.kill(running.pid, 'SIGINT'); // "fast" shutdown: ends sessions, checkpoints, exits
      await waitFor(() => !isAlive(running.pid), 30_000);
    }
    rmSync(this.ownerFile, { force: true });
  }

  private get ownerFile(): string {
    return join(this.dataDir, 'postgres.owner');
  }

  /**
   * initdb into a folder of this process, then one rename: a first start killed half-way leaves only a temporary
   * folder, which the next start removes and redoes.
   */
  private initialise(): void {
    for (const name of readdirSync(this.dataDir)) {
      const pid = /^postgres\.init-(\d+)$/.exec(name)?.[1];
      if (pid && !isAlive(Number(pid))) rmSync(join(this.dataDir, name), { recursive: true, force: true });
    }
    const building = join(this.dataDir, `postgres.init-${process.pid}`);
    rmSync(building, { recursive: true, force: true });
    const password = randomBytes(24).toString('base64url');
    const passwordFile = join(this.dataDir, `.initdb-password-${process.pid}`);
    writeFileSync(passwordFile, `${password}\n`, { mode: 0o600 });
    this.log(`creating the embedded PostgreSQL cluster in ${this.clusterDir}`);
    try {
      const { command, args } = asDatabaseUser(join(postgresBinDir(), 'initdb'), [
        `--pgdata=${building}`,
        `--username=${USER}`,
        '--auth=scram-sha-256',
        `--pwfile=${passwordFile}`,
        '--encoding=UTF8',
        '--locale=C',
        '--no-instructions',
      ]);
      const result = spawnSync(command, args, { encoding: 'utf8' });
      if (result.status !== 0) {
        throw new Error(
          `initdb failed: ${(result.stderr || result.error?.message || '').trim().split('\n').pop()}`,
        );
      }
    } finally {
      rmSync(passwordFile, { force: true });
    }
    writeFileSync(join(building, PASSWORD_FILE), `${password}\n`, { mode: 0o600 });
    try {
      renameSync(building, this.clusterDir);
    } catch (error) {
      // Another process finished its own first start in the meantime: use that one.
      rmSync(building, { recursive: true, force: true });
      if (!existsSync(join(this.clusterDir, 'PG_VERSION'))) throw error;
    }
  }

  private readOwner(): Owner | undefined {
    try {
      return JSON.parse(readFileSync(this.ownerFile, 'utf8')) as Owner;
    } catch {
      return undefined;
    }
  }

  private claim(): void {
    writeFileSync(this.ownerFile, JSON.stringify({ pid: process.pid, role: this.role } satisfies Owner));
    this.owning = true;
  }

  private async joinOrStart(): Promise<number> {
    const deadline = Date.now() + START_TIMEOUT_MS;
    let failedStarts = 0;
    while (Date.now() < deadline) {
      const running = runningPostmaster(this.clusterDir);
      if (running) {
        const owner = this.readOwner();
        const ownerAlive = owner !== undefined && owner.pid !== process.pid && isAlive(owner.pid);
        if (this.role === 'server' && ownerAlive && owner.role === 'server') {
          throw new DataFolderInUseError(
            `another Outpost server (pid ${owner.pid}) is using the data folder ${this.dataDir}; ` +
              'stop it first, or give this one its own OUTPOST_DATA_DIR',
          );
        }
        if (this.role === 'server' && ownerAlive) {
          // A short command started it; it stops it when done. Wait for that, then start our own.
          await sleep(200);
          continue;
        }
        if (this.role === 'server') {
          this.log(`adopting the embedded PostgreSQL (pid ${running.pid}) left by an earlier process`);
          this.claim();
        }
        if (running.status === 'ready') return running.port;
        await sleep(100);
        continue;
      }
      const started = await this.start();
      if (started !== undefined) return started;
      if (++failedStarts === 3) {
        throw new Error(`the embedded PostgreSQL did not start; see ${join(this.dataDir, 'postgres.log')}`);
      }
    }
    throw new Error(`the embedded PostgreSQL in ${this.clusterDir} did not become ready`);
  }

  /** Starts the server; undefined when it exited at once (another process took the folder, or the port). */
  private async start(preferredPort?: number): Promise<number | undefined> {
    const port = preferredPort ?? (await freePort());
    const logFd = openSync(join(this.dataDir, 'postgres.log'), 'a', 0o600);
    const { command, args } = asDatabaseUser(join(postgresBinDir(), 'postgres'), [
      '-D',
      this.clusterDir,
      '-p',
      String(port),
      '-c',
      'listen_addresses=127.0.0.1',
      '-c',
      'unix_socket_directories=',
      '-c',
      'max_connections=200',
    ]);
    // Its own process group: a Ctrl+C in the terminal reaches Outpost, which stops the database after itself.
    const child = spawn(command, args, { detached: true, stdio: ['ignore', logFd, logFd] });
    closeSync(logFd);
    child.unref();
    let exited = false;
    child.once('exit', () => (exited = true));
    const ready = await waitFor(
      () => exited || runningPostmaster(this.clusterDir)?.status === 'ready',
      START_TIMEOUT_MS,
    );
    if (exited || !ready) {
      // Lost the race for the folder (the other process runs it now) or for the port: the caller looks again.
      if (!exited) child.kill('SIGKILL');
      return undefined;
    }
    this.claim();
    this.log(`embedded PostgreSQL started on 127.0.0.1:${port} (pid ${child.pid})`);
    return port;
  }

  private async ensureDatabase(url: string): Promise<void> {
    const admin = new URL(url);
    admin.pathname = '/postgres';
    const client = new Client({ connectionString: admin.toString() });
    await client.connect();
    try {
      const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [DATABASE]);
      if (found.rowCount) return;
      await client.query(`CREATE DATABASE ${DATABASE}`).catch((error: { code?: string }) => {
        if (error.code !== '42P04') throw error; // created by a concurrent process
      });
    } finally {
      await client.end();
    }
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

async function waitFor(condition: () => boolean, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (condition()) return true;
    await sleep(25);
  }
  return condition();
}
