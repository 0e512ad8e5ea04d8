// What the JavaScript benchmarks share: a scratch database on the admin URL, a free port, and one real
// `node dist/main.js` instance process (password auth, instance surface only, warnings-only logs).
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
export const ADMIN_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
export const PASSWORD = 'bench-password';
export const AUTH = `Basic ${Buffer.from(`opencode:${PASSWORD}`).toString('base64')}`;

export function freePort() {
  return new Promise((resolve) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** Polls `url` until it answers below 500; returns that status. */
export async function waitFor(url, headers = {}, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      const res = await fetch(url, { headers, signal: AbortSignal.timeout(5_000) });
      if (res.status < 500) return res.status;
    } catch {}
    if (Date.now() > deadline) throw new Error(`${url} did not answer`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

export const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

export async function sql(url, work) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

export function dbUrl(name) {
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

/**
 * Node's own flags as `npm start` gives them (package.json's start script; docker/Dockerfile's CMD has the same,
 * src/v8-flags.spec.ts checks both), so a bench measures the server as it is started.
 */
export const SERVER_NODE_ARGS = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'))
  .scripts.start.split(' ')
  .filter((word) => word.startsWith('--'));

/** Starts `node dist/main.js` on database `database` at `port`; `env` adds or overrides variables. */
export function spawnOutpost({
  port,
  database,
  dataDir,
  directory,
  env = {},
  stdio = ['ignore', 'inherit', 'inherit'],
}) {
  return spawn(process.execPath, [...SERVER_NODE_ARGS, join(ROOT, 'dist', 'main.js')], {
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      HOST: '127.0.0.1',
      PORT: String(port),
      DATABASE_URL: dbUrl(database),
      OUTPOST_PASSWORD: PASSWORD,
      OUTPOST_SURFACES: 'instance',
      OUTPOST_DATA_DIR: dataDir,
      OUTPOST_DEFAULT_DIRECTORY: directory,
      LOG_LEVEL: 'warn',
      NODE_ENV: 'production',
      ...env,
    },
    stdio,
  });
}

/** The machine's CPU time so far, from /proc/stat (in ticks): all of it, and what the hypervisor took (steal). */
export function cpuTimes() {
  try {
    const [, ...fields] = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/);
    const ticks = fields.map(Number);
    return { total: ticks.reduce((sum, t) => sum + t, 0), steal: ticks[7] ?? 0 };
  } catch {
    return { total: 0, steal: 0 }; // not Linux
  }
}

/** The share of the machine's CPU time the hypervisor gave to other guests between two `cpuTimes()`. */
export function stealShare(before, after) {
  const total = after.total - before.total;
  return total > 0 ? (after.steal - before.steal) / total : 0;
}
