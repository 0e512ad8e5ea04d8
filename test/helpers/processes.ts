import { ChildProcess, spawn } from 'node:child_process';
import { connect, createServer } from 'node:net';
import { join } from 'node:path';
import { runningPostmaster } from '../../src/database/embedded/postmaster';
import { shareSecret } from './shared-secret';

export const MAIN = join(__dirname, '..', '..', 'dist', 'main.js');

/** Servers still running; whatever a test file leaves behind (a failed assertion, a time-out) is killed at its end. */
const live = new Set<ChildProcess>();
/** Data folders of servers on the embedded default: a server killed with SIGKILL leaves its PostgreSQL running. */
const embeddedFolders = new Set<string>();
afterAll(async () => {
  for (const child of live) child.kill('SIGKILL');
  for (const dataDir of embeddedFolders) await stopEmbeddedServerOf(dataDir);
});

/** Stops the embedded PostgreSQL of a data folder if one still runs there (as its owner would). */
export async function stopEmbeddedServerOf(dataDir: string): Promise<void> {
  const running = runningPostmaster(join(dataDir, 'postgres'));
  if (!running) return;
  process.kill(running.pid, 'SIGINT');
  for (let i = 0; i < 300 && runningPostmaster(join(dataDir, 'postgres')); i++) {
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

export interface ServerProcess {
  child: ChildProcess;
  url: string;
  /** Standard output and error, as they came. */
  output(): string;
  /** Standard output alone (the log). */
  stdout(): string;
  /** Standard error alone (where `outpost: …` lines go; the logs go to standard output). */
  stderr(): string;
  exited: Promise<number | null>;
}

/**
 * Starts `node dist/main.js` (built by `npm test`'s pretest) with the given environment. On a database another node
 * used, without its own `OUTPOST_SECRET_KEY`, it gets that node's secret key (test/helpers/shared-secret.ts).
 */
export function startServer(env: Record<string, string | undefined>): ServerProcess {
  let output = '';
  let out = '';
  let errors = '';
  shareSecret(env);
  if (!env.DATABASE_URL && env.OUTPOST_DATA_DIR) embeddedFolders.add(env.OUTPOST_DATA_DIR);
  const child = spawn(process.execPath, [MAIN], {
    // Tests sign many people up: sign-up is open unless a test says otherwise (its default has a test).
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
      OUTPOST_CONSOLE_SIGNUP: 'open',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (chunk) => {
    output += chunk;
    out += chunk;
  });
  child.stderr!.on('data', (chunk) => {
    output += chunk;
    errors += chunk;
  });
  live.add(child);
  const exited = new Promise<number | null>((resolve) =>
    child.on('exit', (code) => {
      live.delete(child);
      resolve(code);
    }),
  );
  return {
    child,
    url: `http://127.0.0.1:${env.PORT}`,
    output: () => output,
    stdout: () => out,
    stderr: () => errors,
    exited,
  };
}

/**
 * Waits until `server` itself serves: it wrote its start-up banner (after it bound its port) and its /health
 * answers 200. A server that stopped first (a port taken, a boot error) fails here with its output, not later as a
 * test talking to whatever else answers on that port.
 */
export async function waitForHealth(server: ServerProcess, timeoutMs = 120_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (server.child.exitCode !== null || server.child.signalCode !== null) {
      throw new Error(`${server.url} stopped before it served:\n${server.output().slice(-4000)}`);
    }
    // The banner: readable lines on standard error, or a JSON record on standard output (`LOG_FORMAT=json`).
    if (server.output().includes('Outpost is running on ')) {
      try {
        const res = await fetch(`${server.url}/health`);
        if (res.status === 200) return;
      } catch {}
    }
    if (Date.now() > deadline) throw new Error(`${server.url} did not become healthy`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Waits until `url`'s port refuses new connections: its server has begun closing. */
export async function waitForRefusal(url: string, timeoutMs = 30_000): Promise<void> {
  const { hostname, port } = new URL(url);
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const refused = await new Promise<boolean>((resolve) => {
      const socket = connect(Number(port), hostname);
      socket.once('connect', () => {
        socket.destroy();
        resolve(false);
      });
      socket.once('error', () => resolve(true));
    });
    if (refused) return;
    if (Date.now() > deadline) throw new Error(`${url} still accepts connections`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const PORTS_PER_WORKER = 3_000;
/**
 * This Jest worker's slice of 20000–31999, below the kernel's ephemeral ports (32768–60999, where `listen(0)` and
 * outgoing connections take theirs), walked from a random start.
 */
const slice = 20_000 + ((Number(process.env.JEST_WORKER_ID ?? 1) - 1) % 4) * PORTS_PER_WORKER;
let nextPort = Math.floor(Math.random() * PORTS_PER_WORKER);

/**
 * A port that nothing listens on right now, for a server process started next. It is taken below the ephemeral
 * range, from a slice of its own per Jest worker and never twice in a test file: a port from `listen(0)` could be
 * handed to a server of the other worker (or to an outgoing connection) before the process starts, and then that
 * server would answer this one's requests.
 */
export async function freePort(): Promise<number> {
  for (let tries = 0; tries < PORTS_PER_WORKER; tries++) {
    const port = slice + (nextPort++ % PORTS_PER_WORKER);
    if (await isFree(port)) return port;
  }
  throw new Error('no free port below the ephemeral range');
}

function isFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}
