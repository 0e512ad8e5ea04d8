/*
 * `npm run bench:console-auth`: authenticated `GET /console/api/user` with a service-account key against
 * unauthenticated `GET /health`, on one real server process (autocannon, 10 connections). Also counts the
 * database statements per authenticated request and shows the plan of the key lookup.
 * Needs a PostgreSQL server (BENCH_DATABASE_ADMIN_URL, default the local one). Results: bench/results/.
 */
import { Client } from 'pg';
import {
  commits,
  databaseUrl,
  DURATION,
  load,
  median,
  ownerWithKey,
  ROUNDS,
  Run,
  withServer,
  writeResults,
} from './support';

const CONNECTIONS = 10;
const TARGET_RATIO = 0.5;

async function main(): Promise<void> {
  await withServer('bench_console', async (base, name) => {
    const { key } = await ownerWithKey(base, 'all');
    const auth = { authorization: `Bearer ${key}` };
    const check = await fetch(`${base}/console/api/user`, { headers: auth });
    if (check.status !== 200) throw new Error(`key check failed: ${check.status}`);

    // Statements per authenticated request: the database's transaction counter over 500 sequential requests.
    const db = new Client({ connectionString: databaseUrl(name) });
    await db.connect();
    const probe = 500;
    const before = await commits(db, name);
    for (let i = 0; i < probe; i++) await fetch(`${base}/console/api/user`, { headers: auth });
    await new Promise((resolve) => setTimeout(resolve, 11_000)); // idle backends flush their statistics within 10 s
    const after = await commits(db, name);
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
    writeResults('console-auth', results, md);
  });
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
