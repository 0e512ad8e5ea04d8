/*
 * `npm run bench:budgets`: `GET /console/api/v1/budgets/members` with an All key for a workspace of 1,000
 * members with 1,000,000 usage rows (seeded with bulk SQL, with each member's spend for the month as
 * `recordUsage()` would have kept it), on one real server process. Target: p50 ≤ 100 ms.
 * Needs a PostgreSQL server (BENCH_DATABASE_ADMIN_URL, default the local one). Results: bench/results/.
 */
import { Client } from 'pg';
import {
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

const MEMBERS = 1000;
const USAGE_ROWS = 1_000_000;
const TARGET_P50_MS = 100;

async function seed(db: Client, org: string): Promise<void> {
  const others = MEMBERS - 1; // the owner who signed up is the first member
  await db.query(
    `INSERT INTO users (id, email, name, password_hash, created_at)
     SELECT 'usr_bench' || lpad(i::text, 6, '0'), 'member' || lpad(i::text, 6, '0') || '@example.com',
            'Member ' || i, 'not-a-password-hash', now()
       FROM generate_series(1, $1::int) i`,
    [others],
  );
  await db.query(
    `INSERT INTO membership (workspace_id, user_id, role, created_at)
     SELECT $1, 'usr_bench' || lpad(i::text, 6, '0'), 'member', now() FROM generate_series(1, $2::int) i`,
    [org, others],
  );
  // Usage over the last 45 days, so part of it falls in the previous month.
  await db.query(
    `WITH ids AS (SELECT array_agg(user_id ORDER BY user_id) AS a FROM membership WHERE workspace_id = $1)
     INSERT INTO usage (workspace_id, member_id, key_id, model, input_tokens, output_tokens, cost_micro_cents, created_at)
     SELECT $1, ids.a[1 + i % $2::int], NULL, (ARRAY['gpt-5', 'claude-sonnet-4-5', 'gemini-2.5-pro'])[1 + i % 3],
            1000 + i % 5000, 100 + i % 900, 10000 + i % 100000, now() - random() * interval '45 days'
       FROM generate_series(1, $3::int) i, ids`,
    [org, MEMBERS, USAGE_ROWS],
  );
  await db.query(
    `INSERT INTO member_spend (workspace_id, member_id, month, spent_micro_cents)
     SELECT workspace_id, member_id, date_trunc('month', now() AT TIME ZONE 'UTC')::date, sum(cost_micro_cents)
       FROM usage WHERE workspace_id = $1 AND created_at >= date_trunc('month', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC'
      GROUP BY workspace_id, member_id`,
    [org],
  );
  await db.query(
    `INSERT INTO member_budget (workspace_id, member_id, limit_micro_cents, updated_at)
     SELECT workspace_id, user_id, 5000000000, now() FROM membership WHERE workspace_id = $1 AND user_id LIKE '%0'`,
    [org],
  );
  await db.query(
    `INSERT INTO workspace_budget (workspace_id, default_limit_micro_cents, updated_at) VALUES ($1, 2500000000, now())`,
    [org],
  );
  await db.query('ANALYZE');
}

async function main(): Promise<void> {
  await withServer('bench_budgets', async (base, name) => {
    const { org, key } = await ownerWithKey(base, 'all');
    const db = new Client({ connectionString: databaseUrl(name) });
    await db.connect();
    const started = Date.now();
    await seed(db, org);
    const seedSeconds = (Date.now() - started) / 1000;
    const expected = (
      await db.query(
        `SELECT count(*)::int AS rows, sum(cost_micro_cents)::text AS month_total,
                (SELECT sum(cost_micro_cents)::text FROM usage u
                  WHERE u.created_at >= date_trunc('month', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC') AS spent
           FROM usage`,
      )
    ).rows[0] as { rows: number; spent: string };
    await db.end();

    const auth = { authorization: `Bearer ${key}` };
    const res = await fetch(`${base}/console/api/v1/budgets/members`, { headers: auth });
    const members = (await res.json()) as Array<{ spent_micro_cents: string; kind: string }>;
    const people = members.filter((m) => m.kind === 'person').length;
    const spent = members.reduce((sum, m) => sum + BigInt(m.spent_micro_cents), 0n).toString();
    if (res.status !== 200 || people !== MEMBERS || spent !== expected.spent) {
      throw new Error(`check failed: ${res.status}, ${people} people, spent ${spent} vs ${expected.spent}`);
    }

    const url = `${base}/console/api/v1/budgets/members`;
    await load(url, auth, 1, 3); // warm-up
    const sequential: Run[] = [];
    const concurrent: Run[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      sequential.push(await load(url, auth, 1));
      concurrent.push(await load(url, auth, 10));
    }
    const p50 = median(sequential.map((r) => r.latencyP50Ms));
    const results = {
      benchmark: 'budgets',
      date: new Date().toISOString(),
      node: process.version,
      durationSeconds: DURATION,
      rounds: ROUNDS,
      members: MEMBERS,
      serviceAccounts: members.length - people,
      usageRows: expected.rows,
      seedSeconds,
      responseBytes: JSON.stringify(members).length,
      oneConnection: {
        medianLatencyP50Ms: p50,
        medianLatencyP99Ms: median(sequential.map((r) => r.latencyP99Ms)),
        medianRequestsPerSecond: median(sequential.map((r) => r.requestsPerSecond)),
        runs: sequential,
      },
      tenConnections: {
        medianLatencyP50Ms: median(concurrent.map((r) => r.latencyP50Ms)),
        medianRequestsPerSecond: median(concurrent.map((r) => r.requestsPerSecond)),
        runs: concurrent,
      },
      targetP50Ms: TARGET_P50_MS,
      meetsTarget: p50 <= TARGET_P50_MS,
    };
    const md = `# budgets

${results.date}, Node ${results.node}, autocannon ${DURATION} s per run, median of ${ROUNDS} rounds, one server process.
\`GET /console/api/v1/budgets/members\` with an All key: ${MEMBERS} members and ${results.serviceAccounts} service account,
${expected.rows.toLocaleString('en-US')} usage rows over the last 45 days (seeded in ${seedSeconds.toFixed(1)} s), ${results.responseBytes} bytes per response.
The answer was checked: every member listed, and the spends add up to the usage of the current UTC month.

| connections | p50 latency (ms) | p99 latency (ms) | req/s |
|---|---|---|---|
| 1 | ${p50} | ${results.oneConnection.medianLatencyP99Ms} | ${results.oneConnection.medianRequestsPerSecond.toFixed(1)} |
| 10 | ${results.tenConnections.medianLatencyP50Ms} | | ${results.tenConnections.medianRequestsPerSecond.toFixed(1)} |

p50 (one connection): **${p50} ms** (target ≤ ${TARGET_P50_MS} ms: ${results.meetsTarget ? 'met' : 'NOT met'}).
The list reads each member's spend for the month from \`member_spend\`, which \`recordUsage()\` keeps in the
same statement that adds the usage row, so its cost does not grow with the usage table.
`;
    writeResults('budgets', results, md);
  });
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
