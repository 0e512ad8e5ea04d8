/*
 * `npm run bench:console-auth`: authenticated `GET /console/api/user` with a service-account key against
 * unauthenticated `GET /health`, on one real server process (autocannon, 10 connections). Also counts the
 * database statements per authenticated request and shows the plan of the key lookup.
 * Needs a PostgreSQL server (BENCH_DATABASE_ADMIN_URL, default the local one). Results: bench/results/.
 */
import autocannon from 'autocannon';
import { ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { admin, databaseUrl, freePort, waitForHealth } from './bench-server';

const ROOT = join(__dirname, '..', '..');
const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CONNECTIONS = 10;
const TARGET_RATIO = 0.5;

async function json<T>(
  url: string,
  init: RequestInit & { cookie?: string } = {},
): Promise<{ status: number; body: T; cookie?: string }> {
  const headers: Record<string, string> = { 'content-type': 'application/json', origin: new URL(url).origin };
  if (init.cookie) headers.cookie = init.cookie;
  const res = await fetch(url, { ...init, headers });
  const text = await res.text();
  return {
    status: res.status,
    body: (text ? JSON.parse(text) : undefined) as T,
    cookie: res.headers.get('set-cookie')?.split(';')[0],
  };
}

interface Run {
  requestsPerSecond: number;
  latencyP50Ms: number;
  latencyP99Ms: number;
  non2xx: number;
}

async function load(url: string, headers: Record<string, string> = {}): Promise<Run> {
  const result = await autocannon({ url, connections: CONNECTIONS, duration: DURATION, headers });
  return {
    requestsPerSecond: result.requests.average,
    latencyP50Ms: result.latency.p50,
    latencyP99Ms: result.latency.p99,
    non2xx: result.non2xx,
  };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

async function main(): Promise<void> {
  const name = `bench_console_${process.pid}`;
  await admin(`CREATE DATABASE "${name}"`);
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  let server: ChildProcess | undefined;
  try {
    server = spawn(process.execPath, [join(ROOT, 'dist', 'main.js')], {
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
        body: JSON.stringify({ name: 'bench', permission: 'all' }),
      })
    ).body.key;
    const auth = { authorization: `Bearer ${key}` };
    const check = await fetch(`${base}/console/api/user`, { headers: auth });
    if (check.status !== 200) throw new Error(`key check failed: ${check.status}`);

    // Statements per authenticated request: the database's transaction counter over 500 sequential requests.
    const db = new Client({ connectionString: databaseUrl(name) });
    await db.connect();
    const commits = async () => {
      await db.query('SELECT pg_stat_clear_snapshot()');
      const { rows } = await db.query(
        'SELECT xact_commit::bigint AS n FROM pg_stat_database WHERE datname = $1',
        [name],
      );
      return Number(rows[0].n);
    };
    const probe = 500;
    const before = await commits();
    for (let i = 0; i < probe; i++) await fetch(`${base}/console/api/user`, { headers: auth });
    await new Promise((resolve) => setTimeout(resolve, 11_000)); // idle backends flush their statistics within 10 s
    const after = await commits();
    // Our own two counter reads are transactions too.
    const statementsPerRequest = (after - before - 2) / probe;
    const plan = (
      await db.query(
        `EXPLAIN SELECT k.id FROM api_key k JOIN workspace w ON w.id = k.workspace_id
           LEFT JOIN service_account sa ON sa.id = k.service_account_id
           LEFT JOIN users u ON u.id = k.user_id
           LEFT JOIN membership m ON m.workspace_id = k.workspace_id AND m.user_id = k.user_id
          WHERE k.public_id = $1`,
        [key.slice(6, 18)],
      )
    ).rows.map((row: Record<string, string>) => row['QUERY PLAN']);
    await db.end();

    await load(`${base}/health`); // warm-up
    const health: Run[] = [];
    const user: Run[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      health.push(await load(`${base}/health`));
      user.push(await load(`${base}/console/api/user`, auth));
    }
    const healthRps = median(health.map((r) => r.requestsPerSecond));
    const userRps = median(user.map((r) => r.requestsPerSecond));
    const ratio = userRps / healthRps;
    const results = {
      benchmark: 'console-auth',
      date: new Date().toISOString(),
      node: process.version,
      connections: CONNECTIONS,
      durationSeconds: DURATION,
      rounds: ROUNDS,
      health: {
        medianRequestsPerSecond: healthRps,
        medianLatencyP50Ms: median(health.map((r) => r.latencyP50Ms)),
        runs: health,
      },
      consoleUserWithKey: {
        medianRequestsPerSecond: userRps,
        medianLatencyP50Ms: median(user.map((r) => r.latencyP50Ms)),
        runs: user,
      },
      ratio,
      target: TARGET_RATIO,
      meetsTarget: ratio >= TARGET_RATIO,
      databaseTransactionsPerAuthenticatedRequest: statementsPerRequest,
      keyLookupPlan: plan,
    };
    mkdirSync(join(ROOT, 'bench', 'results'), { recursive: true });
    writeFileSync(
      join(ROOT, 'bench', 'results', 'console-auth.json'),
      JSON.stringify(results, null, 2) + '\n',
    );
    const md = `# console-auth

${results.date}, Node ${results.node}, autocannon ${CONNECTIONS} connections, ${DURATION} s per run, median of ${ROUNDS} rounds, one server process.

| endpoint | req/s (median) | p50 latency (ms) |
|---|---|---|
| \`GET /health\` (no credentials) | ${healthRps.toFixed(0)} | ${results.health.medianLatencyP50Ms} |
| \`GET /console/api/user\` (service-account key) | ${userRps.toFixed(0)} | ${results.consoleUserWithKey.medianLatencyP50Ms} |

Ratio: **${(ratio * 100).toFixed(1)}%** of /health (target ≥ ${TARGET_RATIO * 100}%: ${results.meetsTarget ? 'met' : 'NOT met'}).

Database transactions per authenticated request (pg_stat_database, ${probe} sequential requests): **${statementsPerRequest.toFixed(2)}**
(\`last_used_at\` is written at most once a minute per key).

Plan of the key lookup:

\`\`\`
${plan.join('\n')}
\`\`\`
`;
    writeFileSync(join(ROOT, 'bench', 'results', 'console-auth.md'), md);
    process.stdout.write(md);
  } finally {
    server?.kill('SIGTERM');
    await new Promise((resolve) => setTimeout(resolve, 500));
    await admin(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
