// `npm run bench:sessions`: seeds 100,000 sessions on a scratch database, starts `node dist/main.js`, and
// measures the session routes with autocannon (10 connections). Then, when `opencode` can be installed and
// started, the same requests against `opencode serve` on 1,000 sessions. Results: bench/results/sessions.{json,md}.
import autocannon from 'autocannon';
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import os, { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { startOpencode } from './opencode.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const ADMIN_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const SESSIONS = Number(process.env.BENCH_SESSIONS ?? 100_000);
const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const CONNECTIONS = 10;
const WARM_UP = 5;
const PASSWORD = 'bench-password';
export const AUTH = `Basic ${Buffer.from(`opencode:${PASSWORD}`).toString('base64')}`;

export async function freePort() {
  return new Promise((resolve) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

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

/** One autocannon run: requests/s and latency percentiles (ms). */
export async function measure(name, url, options = {}) {
  const run = (duration) =>
    autocannon({ ...options, url, connections: CONNECTIONS, duration, headers: { authorization: AUTH, ...options.headers } });
  await run(WARM_UP); // warm-up: JIT, connection pools, caches
  const result = await run(DURATION);
  const row = {
    name,
    requestsPerSecond: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors,
  };
  console.log(`${name.padEnd(28)} ${String(row.requestsPerSecond).padStart(6)} req/s  p50 ${row.p50} ms  p99 ${row.p99} ms  non-2xx ${row.non2xx}`);
  return row;
}

const sql = async (url, work) => {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
};

function dbUrl(name) {
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

/** Bulk seed in one statement: opencode-format descending ids, one session a minute back from now. */
async function seed(url, directories) {
  const started = Date.now();
  await sql(url, async (client) => {
    await client.query(
      `INSERT INTO session (id, project_id, directory, subpath, agent, title, time_created, time_updated)
       SELECT 'ses_' || to_hex(~(t * 4096 + 1)) || substr(md5(i::text), 1, 12),
              'bench-project-' || (i % 20), ($3::text[])[1 + i % array_length($3::text[], 1)], '', 'build',
              'Bench session ' || i, t, t
       FROM (SELECT i, $2::bigint - i::bigint * 60000 AS t FROM generate_series(1, $1::int) AS i) AS s`,
      [SESSIONS, Date.now(), directories],
    );
    await client.query('VACUUM ANALYZE session');
  });
  return Date.now() - started;
}

function cursorAt(anchor) {
  const data = { order: 'desc', anchor: { id: anchor.id, time: Number(anchor.time_updated), direction: 'next' } };
  return Buffer.from(JSON.stringify(data)).toString('base64url');
}

/** Starts Outpost on a scratch database with the seed; returns the requests to measure and a stop(). */
async function startOutpost() {
  const database = `outpost_bench_sessions_${process.pid}`;
  await sql(ADMIN_URL, (client) => client.query(`CREATE DATABASE "${database}"`));
  const scratch = realpathSync(mkdtempSync(join(tmpdir(), 'outpost-bench-')));
  const directories = Array.from({ length: 20 }, (_, i) => {
    const dir = join(scratch, `project-${i}`);
    mkdirSync(dir);
    return dir;
  });
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const server = spawn(process.execPath, [join(ROOT, 'dist', 'main.js')], {
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      HOST: '127.0.0.1',
      PORT: String(port),
      DATABASE_URL: dbUrl(database),
      OUTPOST_PASSWORD: PASSWORD,
      OUTPOST_SURFACES: 'instance',
      OUTPOST_DATA_DIR: join(scratch, 'data'),
      OUTPOST_DEFAULT_DIRECTORY: directories[0],
      LOG_LEVEL: 'warn',
      NODE_ENV: 'production',
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const stop = async () => {
    server.kill('SIGTERM');
    await new Promise((resolve) => server.once('exit', resolve));
    await sql(ADMIN_URL, (client) => client.query(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`));
  };
  try {
    await waitFor(`${base}/health`);
    const seedMs = await seed(dbUrl(database), directories);
    console.log(`seeded ${SESSIONS} sessions in ${(seedMs / 1000).toFixed(1)} s`);
    const { deep, middle } = await sql(dbUrl(database), async (client) => {
      // OFFSET only here, to find the anchor of page 1,000; the server never uses it.
      const deepRow = (
        await client.query('SELECT id, time_updated FROM session ORDER BY time_updated DESC, id DESC OFFSET $1 LIMIT 1', [
          Math.min(999 * 50, SESSIONS - 51),
        ])
      ).rows[0];
      const middleRow = (await client.query('SELECT id FROM session ORDER BY time_updated DESC OFFSET $1 LIMIT 1', [SESSIONS / 2])).rows[0];
      // Let the seed's writes settle, so the first row does not pay for them.
      await client.query('CHECKPOINT');
      return { deep: deepRow, middle: middleRow.id };
    });
    const deepUrl = `${base}/api/session?limit=50&cursor=${cursorAt(deep)}`;
    const check = await (await fetch(deepUrl, { headers: { authorization: AUTH } })).json();
    if (check.data?.length !== 50) throw new Error(`the deep page answered ${JSON.stringify(check).slice(0, 200)}`);
    return {
      seedSeconds: seedMs / 1000,
      stop,
      requests: [
        { name: 'list: first page (50)', url: `${base}/api/session?limit=50` },
        { name: 'list: page 1,000 (cursor)', url: deepUrl },
        { name: 'list: filtered (directory)', url: `${base}/api/session?limit=50&directory=${encodeURIComponent(directories[7])}` },
        { name: 'get', url: `${base}/api/session/${middle}` },
        {
          name: 'create',
          url: `${base}/api/session`,
          options: { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ title: 'bench' }) },
        },
        // No database: what the HTTP stack, auth and the machine allow at all.
        { name: 'baseline: active (no db)', url: `${base}/api/session/active` },
      ],
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

function markdown(report) {
  const lines = [
    '# Sessions benchmark',
    '',
    `Run ${report.date} on ${report.machine}; autocannon, ${CONNECTIONS} connections, ${DURATION} s per row after a ${WARM_UP} s warm-up.`,
    `Outpost: \`node dist/main.js\` (LOG_LEVEL=warn) on PostgreSQL over loopback, ${SESSIONS.toLocaleString('en')} sessions seeded in ${report.outpost.seedSeconds.toFixed(1)} s.`,
    '',
    '| request | req/s | p50 ms | p99 ms | non-2xx |',
    '|---|---:|---:|---:|---:|',
    ...report.outpost.rows.map((r) => `| ${r.name} | ${r.requestsPerSecond} | ${r.p50} | ${r.p99} | ${r.non2xx} |`),
    '',
    '## Targets',
    '',
    ...report.targets.map((t) => `- ${t.ok ? 'met' : 'MISSED'}: ${t.name} (${t.value})`),
    '',
    '## opencode side by side',
    '',
  ];
  if (report.opencode.rows) {
    lines.push(
      `opencode ${report.opencode.version} (\`opencode serve\`) with ${report.opencode.sessions} sessions, running at the same time as Outpost (${SESSIONS.toLocaleString('en')} sessions); each row measured Outpost then opencode, back to back. Ratio: Outpost req/s over opencode req/s.`,
      '',
      '| request | opencode req/s | opencode p50 ms | Outpost req/s | ratio |',
      '|---|---:|---:|---:|---:|',
      ...report.opencode.rows.map((r) => `| ${r.name} | ${r.requestsPerSecond} | ${r.p50} | ${r.outpost} | ${r.ratio} |`),
    );
  } else {
    lines.push(`Not measured: ${report.opencode.reason}`);
  }
  return `${lines.join('\n')}\n`;
}

async function main() {
  const loadBefore = os.loadavg().map((l) => l.toFixed(1)).join(' / ');
  const outpostServer = await startOutpost();
  const opencodeServer = await startOpencode({ freePort, waitFor, password: PASSWORD });
  const outpostRows = [];
  const opencodeRows = [];
  try {
    for (const [i, request] of outpostServer.requests.entries()) {
      outpostRows.push(await measure(request.name, request.url, request.options));
      const theirs = opencodeServer.requests?.[i];
      if (!theirs) continue;
      const row = await measure(`  opencode: ${theirs.name}`, theirs.url, theirs.options);
      opencodeRows.push({
        ...row,
        name: theirs.name,
        outpost: outpostRows[i].requestsPerSecond,
        ratio: row.requestsPerSecond > 0 ? Number((outpostRows[i].requestsPerSecond / row.requestsPerSecond).toFixed(2)) : null,
      });
    }
  } finally {
    await outpostServer.stop();
    await opencodeServer.stop?.();
  }
  const outpost = { seedSeconds: outpostServer.seedSeconds, rows: outpostRows };
  const by = (name) => outpostRows.find((r) => r.name.startsWith(name));
  const first = by('list: first');
  const deep = by('list: page 1,000');
  const targets = [
    { name: 'deep page p50 within 1.5x of the first page', value: `${deep.p50} vs ${first.p50} ms`, ok: deep.p50 <= first.p50 * 1.5 },
    ...outpostRows
      .filter((r) => r.name.startsWith('list'))
      .map((r) => ({ name: `${r.name} >= 1,500 req/s`, value: `${r.requestsPerSecond} req/s`, ok: r.requestsPerSecond >= 1500 })),
    { name: 'get >= 3,000 req/s', value: `${by('get').requestsPerSecond} req/s`, ok: by('get').requestsPerSecond >= 3000 },
    ...opencodeRows.map((r) => ({ name: `${r.name}: Outpost >= 3x opencode`, value: `${r.ratio}x`, ok: r.ratio >= 3 })),
  ];
  const opencode = opencodeServer.requests
    ? { version: opencodeServer.version, sessions: opencodeServer.sessions, rows: opencodeRows }
    : { reason: opencodeServer.reason };
  const report = {
    date: new Date().toISOString(),
    machine: `${os.cpus().length} CPUs, node ${process.version}, load average ${loadBefore} before and ${os.loadavg().map((l) => l.toFixed(1)).join(' / ')} after`,
    outpost,
    targets,
    opencode,
  };
  mkdirSync(join(ROOT, 'bench', 'results'), { recursive: true });
  writeFileSync(join(ROOT, 'bench', 'results', 'sessions.json'), `${JSON.stringify(report, null, 2)}\n`);
  writeFileSync(join(ROOT, 'bench', 'results', 'sessions.md'), markdown(report));
  console.log(markdown(report));
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
