/* Shared parts of the benchmarks: a scratch database, one real server process, autocannon runs. */
import autocannon from 'autocannon';
import { ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { admin, ADMIN_URL, databaseUrl, freePort, SERVER_NODE_ARGS, waitForHealth } from './bench-server';

export { admin, ADMIN_URL, databaseUrl, freePort, waitForHealth };

export const ROOT = join(__dirname, '..', '..');
export const DURATION = Number(process.env.BENCH_DURATION ?? 10);
export const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);

export async function json<T>(
  url: string,
  init: RequestInit & { cookie?: string } = {},
): Promise<{ status: number; body: T; cookie?: string }> {
  const headers: Record<string, string> = { 'content-type': 'application/json', origin: new URL(url).origin };
  if (init.cookie) headers.cookie = init.cookie;
  const res = await fetch(url, { ...init, headers: { ...headers, ...(init.headers as object) } });
  const text = await res.text();
  return {
    status: res.status,
    body: (text ? JSON.parse(text) : undefined) as T,
    cookie: res.headers.get('set-cookie')?.split(';')[0],
  };
}

export interface Run {
  requestsPerSecond: number;
  latencyP50Ms: number;
  latencyP99Ms: number;
  statuses: Record<string, number>;
}

export async function load(
  url: string,
  headers: Record<string, string> = {},
  connections = 10,
  duration = DURATION,
): Promise<Run> {
  const result = await autocannon({ url, connections, duration, headers });
  return {
    requestsPerSecond: result.requests.average,
    latencyP50Ms: result.latency.p50,
    latencyP99Ms: result.latency.p99,
    statuses: { '2xx': result['2xx'], '3xx': result['3xx'], '4xx': result['4xx'], '5xx': result['5xx'] },
  };
}

export const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** One server process on a fresh database; `run` gets its base URL and database name. */
export async function withServer(prefix: string, run: (base: string, database: string) => Promise<void>) {
  const name = `${prefix}_${process.pid}`;
  await admin(`CREATE DATABASE "${name}"`);
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  let server: ChildProcess | undefined;
  try {
    server = spawn(process.execPath, [...SERVER_NODE_ARGS, join(ROOT, 'dist', 'main.js')], {
      env: {
        PATH: process.env.PATH,
        DATABASE_URL: databaseUrl(name),
        PORT: String(port),
        HOST: '127.0.0.1',
        LOG_LEVEL: 'warn',
        OUTPOST_DATA_DIR: mkdtempSync(join(tmpdir(), 'outpost-bench-')),
        OUTPOST_PASSWORD: 'bench-password',
      },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    await waitForHealth(base);
    await run(base, name);
  } finally {
    server?.kill('SIGTERM');
    await new Promise((resolve) => setTimeout(resolve, 500));
    await admin(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  }
}

/** Signs a person up and gives their cookie, their workspace and a service-account key of `permission`. */
export async function ownerWithKey(
  base: string,
  permission: 'all' | 'inference',
): Promise<{ cookie: string; org: string; key: string }> {
  const signup = await json(`${base}/console/api/auth/signup`, {
    method: 'POST',
    body: JSON.stringify({ email: 'bench@example.com', password: 'bench-password-123' }),
  });
  const cookie = signup.cookie!;
  const org = (await json<Array<{ id: string }>>(`${base}/console/api/orgs`, { cookie })).body[0].id;
  const sa = (
    await json<{ id: string }>(`${base}/console/api/orgs/${org}/service-accounts`, {
      method: 'POST',
      cookie,
      body: JSON.stringify({ name: 'bench' }),
    })
  ).body.id;
  const key = (
    await json<{ key: string }>(`${base}/console/api/orgs/${org}/service-accounts/${sa}/keys`, {
      method: 'POST',
      cookie,
      body: JSON.stringify({ name: 'bench', permission }),
    })
  ).body.key;
  return { cookie, org, key };
}

/** Committed transactions of a database so far (statistics flushed by idle backends within 10 s). */
export async function commits(db: Client, name: string): Promise<number> {
  await db.query('SELECT pg_stat_clear_snapshot()');
  const { rows } = await db.query(
    'SELECT xact_commit::bigint AS n FROM pg_stat_database WHERE datname = $1',
    [name],
  );
  return Number(rows[0].n);
}

export function writeResults(name: string, results: object, markdown: string): void {
  mkdirSync(join(ROOT, 'bench', 'results'), { recursive: true });
  writeFileSync(join(ROOT, 'bench', 'results', `${name}.json`), JSON.stringify(results, null, 2) + '\n');
  writeFileSync(join(ROOT, 'bench', 'results', `${name}.md`), markdown);
  process.stdout.write(markdown);
}
