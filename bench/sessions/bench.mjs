// `npm run bench:sessions`: seeds 100,000 sessions on a scratch database, starts `node dist/main.js`, and
// measures the session routes with autocannon (10 connections). Then, when `opencode` can be installed and
// started, the same requests against `opencode serve` on 1,000 sessions. Results: bench/results/sessions.{json,md}.
import autocannon from 'autocannon';
import { mkdirSync, mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import os, { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  ADMIN_URL,
  AUTH,
  cpuTimes,
  dbUrl,
  freePort,
  median,
  PASSWORD,
  ROOT,
  spawnOutpost,
  sql,
  stealShare,
  waitFor,
} from '../outpost-process.mjs';
import { startOpencode } from './opencode.mjs';

const SESSIONS = Number(process.env.BENCH_SESSIONS ?? 100_000);
const DURATION = Number(process.env.BENCH_DURATION ?? 20);
const ROUNDS = 5;
const CONNECTIONS = 10;
const WARM_UP = 5;

/** One autocannon run of `duration` seconds: requests/s, latency percentiles (whole ms) and mean latency (ms). */
export async function measureOnce(request, duration) {
  const { url, options = {} } = request;
  const cpu = cpuTimes();
  const result = await autocannon({
    ...options,
    url,
    connections: CONNECTIONS,
    duration,
    headers: { authorization: AUTH, ...options.headers },
  });
  return {
    requestsPerSecond: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    mean: result.latency.average,
    non2xx: result.non2xx,
    errors: result.errors,
    steal: stealShare(cpu, cpuTimes()),
  };
}

/** The medians over rounds of one request (its runs interleaved with the others', so load spikes hit all). */
function summarize(name, runs) {
  const row = {
    name,
    requestsPerSecond: Math.round(median(runs.map((r) => r.requestsPerSecond))),
    p50: median(runs.map((r) => r.p50)),
    p99: median(runs.map((r) => r.p99)),
    mean: Number(median(runs.map((r) => r.mean)).toFixed(2)),
    non2xx: runs.reduce((sum, r) => sum + r.non2xx, 0),
    errors: runs.reduce((sum, r) => sum + r.errors, 0),
    // Each round's req/s, and the share of the machine's CPU the hypervisor gave others meanwhile (steal).
    rounds: runs.map((r) => Math.round(r.requestsPerSecond)),
    stealPercent: Math.round(median(runs.map((r) => r.steal)) * 100),
  };
  console.log(`${name.padEnd(44)} ${String(row.requestsPerSecond).padStart(6)} req/s  p50 ${row.p50} ms  p99 ${row.p99} ms  non-2xx ${row.non2xx}  steal ${row.stealPercent}%  rounds ${row.rounds.join(' ')}`);
  return row;
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

/** The repository's first-page and keyset SQL under EXPLAIN ANALYZE: median execution time of 21 runs each. */
async function explainPages(client, anchor) {
  const order = 'ORDER BY time_updated DESC, id DESC LIMIT 50';
  const first = `SELECT * FROM session ${order}`;
  const deep = `SELECT * FROM session WHERE (time_updated, id) < (${Number(anchor.time_updated)}::bigint, '${anchor.id}'::varchar) ${order}`;
  const time = async (query) => {
    const times = [];
    let plan;
    for (let i = 0; i < 21; i++) {
      const [{ 'QUERY PLAN': [result] }] = (await client.query(`EXPLAIN (ANALYZE, FORMAT JSON) ${query}`)).rows;
      times.push(result['Execution Time']);
      plan = result.Plan;
    }
    const nodes = [];
    for (let node = plan; node; node = node.Plans?.[0]) nodes.push(node['Index Name'] ? `${node['Node Type']} on ${node['Index Name']}` : node['Node Type']);
    return { ms: Number(median(times).toFixed(3)), plan: nodes.join(' > ') };
  };
  const firstPage = await time(first);
  const deepPage = await time(deep);
  return { firstPageMs: firstPage.ms, deepPageMs: deepPage.ms, firstPlan: firstPage.plan, deepPlan: deepPage.plan };
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
  const server = spawnOutpost({ port, database, dataDir: join(scratch, 'data'), directory: directories[0] });
  const stop = async () => {
    server.kill('SIGTERM');
    await new Promise((resolve) => server.once('exit', resolve));
    await sql(ADMIN_URL, (client) => client.query(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`));
  };
  try {
    await waitFor(`${base}/health`);
    const seedMs = await seed(dbUrl(database), directories);
    console.log(`seeded ${SESSIONS} sessions in ${(seedMs / 1000).toFixed(1)} s`);
    const { deep, middle, plans } = await sql(dbUrl(database), async (client) => {
      // OFFSET only here, to find the anchor of page 1,000; the server never uses it.
      const deepRow = (
        await client.query('SELECT id, time_updated FROM session ORDER BY time_updated DESC, id DESC OFFSET $1 LIMIT 1', [
          Math.min(999 * 50, SESSIONS - 51),
        ])
      ).rows[0];
      const middleRow = (await client.query('SELECT id FROM session ORDER BY time_updated DESC OFFSET $1 LIMIT 1', [SESSIONS / 2])).rows[0];
      // Let the seed's writes settle, so the first row does not pay for them.
      await client.query('CHECKPOINT');
      return { deep: deepRow, middle: middleRow.id, plans: await explainPages(client, deepRow) };
    });
    console.log(`SQL: first page ${plans.firstPageMs} ms, page 1,000 ${plans.deepPageMs} ms (${plans.deepPlan})`);
    const deepUrl = `${base}/api/session?limit=50&cursor=${cursorAt(deep)}`;
    const check = await (await fetch(deepUrl, { headers: { authorization: AUTH } })).json();
    if (check.data?.length !== 50) throw new Error(`the deep page answered ${JSON.stringify(check).slice(0, 200)}`);
    return {
      seedSeconds: seedMs / 1000,
      plans,
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
    `Run ${report.date} on ${report.machine}; autocannon, ${CONNECTIONS} connections, ${DURATION} s per row in ${ROUNDS} rounds of ${DURATION / ROUNDS} s (every request once per round, Outpost then opencode), medians over the rounds, after a ${WARM_UP} s warm-up.`,
    `Outpost: \`node dist/main.js\` (LOG_LEVEL=warn) on PostgreSQL over loopback, ${SESSIONS.toLocaleString('en')} sessions seeded in ${report.outpost.seedSeconds.toFixed(1)} s.`,
    '',
    'Steal: the share of the machine\'s CPU time the hypervisor gave to other guests during the row (median over the rounds); a row measured while it is high reads low.',
    '',
    '| request | req/s | p50 ms | p99 ms | mean ms | non-2xx | req/s per round | steal % |',
    '|---|---:|---:|---:|---:|---:|---|---:|',
    ...report.outpost.rows.map(
      (r) => `| ${r.name} | ${r.requestsPerSecond} | ${r.p50} | ${r.p99} | ${r.mean} | ${r.non2xx} | ${r.rounds.join(', ')} | ${r.stealPercent} |`,
    ),
    '',
    `SQL alone (EXPLAIN ANALYZE, median of 21): first page ${report.outpost.sql.firstPageMs} ms (${report.outpost.sql.firstPlan}), page 1,000 ${report.outpost.sql.deepPageMs} ms (${report.outpost.sql.deepPlan}).`,
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
      `opencode ${report.opencode.version} (\`opencode serve\`) with ${report.opencode.sessions} sessions, running at the same time as Outpost (${SESSIONS.toLocaleString('en')} sessions); interleaved as above. Ratio: Outpost req/s over opencode req/s.`,
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
  const cpuBefore = cpuTimes();
  const outpostServer = await startOutpost();
  const opencodeServer = await startOpencode({ freePort, waitFor, password: PASSWORD });
  const requests = outpostServer.requests.map((request, i) => ({ ours: request, theirs: opencodeServer.requests?.[i] }));
  const runs = requests.map(() => ({ ours: [], theirs: [] }));
  try {
    for (const { ours, theirs } of requests) {
      await measureOnce(ours, WARM_UP);
      if (theirs) await measureOnce(theirs, WARM_UP);
    }
    // Rounds: every request once per round, Outpost then opencode, so both see the same machine.
    for (let round = 1; round <= ROUNDS; round++) {
      console.log(`round ${round} of ${ROUNDS}`);
      for (const [i, { ours, theirs }] of requests.entries()) {
        runs[i].ours.push(await measureOnce(ours, DURATION / ROUNDS));
        if (theirs) runs[i].theirs.push(await measureOnce(theirs, DURATION / ROUNDS));
      }
    }
  } finally {
    await outpostServer.stop();
    await opencodeServer.stop?.();
  }
  const outpostRows = requests.map(({ ours }, i) => summarize(ours.name, runs[i].ours));
  const opencodeRows = requests
    .filter(({ theirs }) => theirs)
    .map(({ theirs }, i) => {
      const row = summarize(`opencode: ${theirs.name}`, runs[i].theirs);
      const ourRate = outpostRows[i].requestsPerSecond;
      return {
        ...row,
        name: theirs.name,
        outpost: ourRate,
        ratio: row.requestsPerSecond > 0 ? Number((ourRate / row.requestsPerSecond).toFixed(2)) : null,
      };
    });
  const outpost = { seedSeconds: outpostServer.seedSeconds, sql: outpostServer.plans, rows: outpostRows };
  const by = (name) => outpostRows.find((r) => r.name.startsWith(name));
  const first = by('list: first');
  const deep = by('list: page 1,000');
  const targets = [
    // autocannon's percentiles are whole milliseconds, too coarse once a page takes 1 to 2 ms: the mean decides.
    { name: 'deep page latency within 1.5x of the first page (mean)', value: `${deep.mean} vs ${first.mean} ms`, ok: deep.mean <= first.mean * 1.5 },
    ...outpostRows
      .filter((r) => r.name.startsWith('list'))
      .map((r) => ({ name: `${r.name} >= 1,500 req/s`, value: `${r.requestsPerSecond} req/s`, ok: r.requestsPerSecond >= 1500 })),
    { name: 'get >= 3,000 req/s', value: `${by('get').requestsPerSecond} req/s`, ok: by('get').requestsPerSecond >= 3000 },
    ...opencodeRows
      .filter((r) => !r.name.startsWith('baseline'))
      .map((r) => ({ name: `${r.name}: Outpost >= 3x opencode`, value: `${r.ratio}x`, ok: r.ratio >= 3 })),
  ];
  const opencode = opencodeServer.requests
    ? { version: opencodeServer.version, sessions: opencodeServer.sessions, rows: opencodeRows }
    : { reason: opencodeServer.reason };
  const report = {
    date: new Date().toISOString(),
    machine: `${os.cpus().length} CPUs, node ${process.version}, load average ${loadBefore} before and ${os.loadavg().map((l) => l.toFixed(1)).join(' / ')} after, ${Math.round(stealShare(cpuBefore, cpuTimes()) * 100)}% steal over the run`,
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
