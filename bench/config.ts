/*
 * `npm run bench:config`: `GET /console/api/v2/config` with a service-account key, with `If-None-Match`
 * (304) and without (200), against unauthenticated `GET /health`, on one real server process (autocannon,
 * 10 connections). Also counts the database transactions of a 304 and shows the plan of the config lookup.
 * Needs a PostgreSQL server (BENCH_DATABASE_ADMIN_URL, default the local one). Results: bench/results/.
 */
import { Client } from 'pg';
import {
  commits,
  databaseUrl,
  DURATION,
  json,
  load,
  median,
  ownerWithKey,
  ROUNDS,
  Run,
  withServer,
  writeResults,
} from './support';

const TARGET_RATIO = 0.6;

/** A realistic document: one gateway provider with a handful of models, web search, MCP, policies. */
const DOCUMENT = {
  providers: {
    outpost: {
      name: 'Outpost gateway',
      env: ['OUTPOST_API_KEY'],
      package: 'aisdk:@ai-sdk/openai-compatible',
      settings: { baseURL: 'https://outpost.example.com/inference/openai/v1' },
      models: Object.fromEntries(
        ['gpt-5', 'gpt-5-mini', 'claude-sonnet-4-5', 'claude-haiku-4-5', 'gemini-2.5-pro'].map((id) => [
          id,
          { name: id.toUpperCase(), limit: { context: 200000, input: 200000, output: 64000 } },
        ]),
      ),
    },
  },
  websearch: { providerID: 'exa' },
  mcp: { servers: { docs: { url: 'https://mcp.example.com/mcp', auth: 'console' } } },
  policies: [
    { action: 'provider.use', resource: '*', effect: 'deny' },
    { action: 'provider.use', resource: 'outpost', effect: 'allow' },
  ],
};

const summary = (runs: Run[]) => ({
  medianRequestsPerSecond: median(runs.map((r) => r.requestsPerSecond)),
  medianLatencyP50Ms: median(runs.map((r) => r.latencyP50Ms)),
  runs,
});

/** Sequential 304s over which the database's transactions are counted. */
const PROBE = 500;

/** An owner's workspace with DOCUMENT as its config and a service-account key; the config's ETag and size. */
async function configured(base: string) {
  const { cookie, org, key } = await ownerWithKey(base, 'inference');
  const put = await json(`${base}/console/api/orgs/${org}/config`, {
    method: 'PUT',
    cookie,
    body: JSON.stringify(DOCUMENT),
  });
  if (put.status !== 200) throw new Error(`config PUT failed: ${put.status}`);
  const auth = { authorization: `Bearer ${key}` };
  const first = await fetch(`${base}/console/api/v2/config`, { headers: auth });
  const etag = first.headers.get('etag')!;
  const bodyBytes = (await first.text()).length;
  const check = await fetch(`${base}/console/api/v2/config`, {
    headers: { ...auth, 'if-none-match': etag },
  });
  if (first.status !== 200 || check.status !== 304)
    throw new Error(`config check: ${first.status} ${check.status}`);
  const conditional = { ...auth, 'if-none-match': etag };
  return { org, etag, bodyBytes, auth, conditional };
}

/** The database's share of a 304: transactions per request (pg_stat_database), and the plan of the config lookup. */
async function databaseCost(
  base: string,
  name: string,
  { org, etag, conditional }: { org: string; etag: string; conditional: Record<string, string> },
) {
  const db = new Client({ connectionString: databaseUrl(name) });
  await db.connect();
  const before = await commits(db, name);
  for (let i = 0; i < PROBE; i++) await fetch(`${base}/console/api/v2/config`, { headers: conditional });
  await new Promise((resolve) => setTimeout(resolve, 11_000)); // idle backends flush their statistics
  const after = await commits(db, name);
  const transactionsPer304 = (after - before - 2) / PROBE; // our own two counter reads are transactions too
  const plan = (
    await db.query(
      `EXPLAIN SELECT etag, CASE WHEN etag = ANY($2::varchar[]) THEN NULL ELSE rendered END AS rendered
           FROM workspace_config WHERE workspace_id = $1`,
      [org, [etag]],
    )
  ).rows.map((row: Record<string, string>) => row['QUERY PLAN']);
  await db.end();
  return { transactionsPer304, plan };
}

interface Results {
  date: string;
  node: string;
  configBodyBytes: number;
  health: ReturnType<typeof summary>;
  config304: ReturnType<typeof summary>;
  config200: ReturnType<typeof summary>;
  ratio304: number;
  ratio200: number;
  meetsTarget: boolean;
  databaseTransactionsPer304: number;
  configLookupPlan: string[];
}

/** bench/results/config.md. */
function markdown(results: Results): string {
  return `# config

${results.date}, Node ${results.node}, autocannon 10 connections, ${DURATION} s per run, median of ${ROUNDS} rounds, one server process.
Credential: a service-account key (Inference only). Config body: ${results.configBodyBytes} bytes.

| endpoint | req/s (median) | p50 latency (ms) | ratio to /health |
|---|---|---|---|
| \`GET /health\` (no credentials) | ${results.health.medianRequestsPerSecond.toFixed(0)} | ${results.health.medianLatencyP50Ms} | 100% |
| \`GET /console/api/v2/config\` with \`If-None-Match\` (304) | ${results.config304.medianRequestsPerSecond.toFixed(0)} | ${results.config304.medianLatencyP50Ms} | ${(results.ratio304 * 100).toFixed(1)}% |
| \`GET /console/api/v2/config\` without (200) | ${results.config200.medianRequestsPerSecond.toFixed(0)} | ${results.config200.medianLatencyP50Ms} | ${(results.ratio200 * 100).toFixed(1)}% |

304 case: **${(results.ratio304 * 100).toFixed(1)}%** of /health (target ≥ ${TARGET_RATIO * 100}%: ${results.meetsTarget ? 'met' : 'NOT met'}).

Database transactions per 304 (pg_stat_database, ${PROBE} sequential requests): **${results.databaseTransactionsPer304.toFixed(2)}**
(the key lookup, plus one primary-key read of the ETag; \`last_used_at\` is written at most once a minute per key).
Nothing is cached in the process, so a change made on any server process is served by the next request.

Plan of the config lookup:

\`\`\`
${results.configLookupPlan.join('\n')}
\`\`\`
`;
}

async function main(): Promise<void> {
  await withServer('bench_config', async (base, name) => {
    const config = await configured(base);
    const { auth, conditional, bodyBytes } = config;
    const { transactionsPer304, plan } = await databaseCost(base, name, config);

    await load(`${base}/health`); // warm-up
    const health: Run[] = [];
    const notModified: Run[] = [];
    const full: Run[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      health.push(await load(`${base}/health`));
      notModified.push(await load(`${base}/console/api/v2/config`, conditional));
      full.push(await load(`${base}/console/api/v2/config`, auth));
    }
    const results = {
      benchmark: 'config',
      date: new Date().toISOString(),
      node: process.version,
      connections: 10,
      durationSeconds: DURATION,
      rounds: ROUNDS,
      configBodyBytes: bodyBytes,
      health: summary(health),
      config304: summary(notModified),
      config200: summary(full),
      ratio304: 0,
      ratio200: 0,
      target: TARGET_RATIO,
      meetsTarget: false,
      databaseTransactionsPer304: transactionsPer304,
      configLookupPlan: plan,
    };
    results.ratio304 = results.config304.medianRequestsPerSecond / results.health.medianRequestsPerSecond;
    results.ratio200 = results.config200.medianRequestsPerSecond / results.health.medianRequestsPerSecond;
    results.meetsTarget = results.ratio304 >= TARGET_RATIO;
    writeResults('config', results, markdown(results));
  });
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
