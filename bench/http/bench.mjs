// `npm run bench:http`: what Outpost's HTTP stack costs on routes that touch no database, beside a bare node:http
// server (bare-server.mjs) answering the same bytes, measured in the same run, rounds interleaved. Outpost runs as
// `npm start` runs it: the default log level (one JSON line per request, read from its stdout pipe), every guard
// and header. Results: bench/results/http.{json,md}. Target: Outpost ≥ 50% of the bare server's req/s on each row.
import autocannon from 'autocannon';
import { fork } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import os, { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  ADMIN_URL,
  AUTH,
  cpuTimes,
  freePort,
  median,
  ROOT,
  spawnOutpost,
  sql,
  stealShare,
  waitFor,
} from '../outpost-process.mjs';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 4);
const CONNECTIONS = 10;
const TARGET = 0.5;

const ROWS = [
  {
    name: 'GET /api/session/active (instance password)',
    path: '/api/session/active',
    headers: { authorization: AUTH },
  },
  { name: 'GET /health/live (public)', path: '/health/live', headers: {} },
];

async function measure(url, headers, duration) {
  const cpu = cpuTimes();
  const result = await autocannon({ url, connections: CONNECTIONS, duration, headers });
  return {
    requestsPerSecond: result.requests.average,
    p50: result.latency.p50,
    non2xx: result.non2xx,
    errors: result.errors,
    steal: stealShare(cpu, cpuTimes()),
  };
}

/** What Outpost answers on `path`, as the bare server will answer it (node sets date and connection itself). */
async function answerOf(base, row) {
  const res = await fetch(base + row.path, { headers: row.headers });
  const headers = Object.fromEntries(
    [...res.headers].filter(([name]) => !['date', 'connection', 'keep-alive', 'x-request-id'].includes(name)),
  );
  return { status: res.status, headers, body: await res.text() };
}

function startBare(answers) {
  const child = fork(join(ROOT, 'bench', 'http', 'bare-server.mjs'), [JSON.stringify(answers)], {
    stdio: 'inherit',
  });
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`the bare server exited with ${code}`)));
    child.once('message', ({ port }) => resolve({ child, url: `http://127.0.0.1:${port}` }));
  });
}

async function main() {
  const database = `outpost_bench_http_${process.pid}`;
  await sql(ADMIN_URL, (client) => client.query(`CREATE DATABASE "${database}"`));
  const dataDir = mkdtempSync(join(tmpdir(), 'outpost-bench-http-'));
  const directory = realpathSync(mkdtempSync(join(tmpdir(), 'outpost-bench-http-project-')));
  const port = await freePort();
  // As `npm start` runs it: the default log level; its lines go to a pipe this process reads and counts.
  const outpost = spawnOutpost({
    port,
    database,
    dataDir,
    directory,
    env: { LOG_LEVEL: 'info', LOG_FORMAT: 'json' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let logLines = 0;
  outpost.stdout.on('data', (chunk) => {
    for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) logLines++;
  });
  let bare;
  try {
    const base = `http://127.0.0.1:${port}`;
    await waitFor(`${base}/health`);
    const answers = {};
    for (const row of ROWS) {
      answers[row.path] = await answerOf(base, row);
      if (answers[row.path].status !== 200)
        throw new Error(`${row.path} answered ${answers[row.path].status}`);
    }
    bare = await startBare(answers);
    const loadBefore = os.loadavg();
    const started = Date.now();
    for (const row of ROWS) {
      await measure(base + row.path, row.headers, 2);
      await measure(bare.url + row.path, row.headers, 2);
    }
    const runs = ROWS.map(() => ({ outpost: [], bare: [] }));
    const linesBefore = logLines;
    let outpostRequests = 0;
    for (let round = 0; round < ROUNDS; round++)
      for (const [i, row] of ROWS.entries()) {
        const ours = await measure(base + row.path, row.headers, SECONDS);
        outpostRequests += Math.round(ours.requestsPerSecond * SECONDS);
        runs[i].outpost.push(ours);
        runs[i].bare.push(await measure(bare.url + row.path, row.headers, SECONDS));
      }
    const loadAfter = os.loadavg();
    const rows = ROWS.map((row, i) => {
      const { outpost: ours, bare: floor } = runs[i];
      const ratios = ours.map((run, k) => run.requestsPerSecond / floor[k].requestsPerSecond);
      const result = {
        name: row.name,
        outpostRequestsPerSecond: Math.round(median(ours.map((r) => r.requestsPerSecond))),
        bareRequestsPerSecond: Math.round(median(floor.map((r) => r.requestsPerSecond))),
        ratio: Number(median(ratios).toFixed(3)),
        outpostP50: median(ours.map((r) => r.p50)),
        bareP50: median(floor.map((r) => r.p50)),
        non2xx: [...ours, ...floor].reduce((sum, r) => sum + r.non2xx + r.errors, 0),
        outpostRounds: ours.map((r) => Math.round(r.requestsPerSecond)),
        bareRounds: floor.map((r) => Math.round(r.requestsPerSecond)),
        stealPercent: Math.round(median([...ours, ...floor].map((r) => r.steal)) * 100),
      };
      const verdict = result.ratio >= TARGET ? 'met' : 'NOT met';
      console.log(
        `${row.name.padEnd(46)} Outpost ${result.outpostRequestsPerSecond} req/s, bare ${result.bareRequestsPerSecond} req/s: ` +
          `${(result.ratio * 100).toFixed(0)}% (target ≥ ${TARGET * 100}%: ${verdict}); rounds ${result.outpostRounds.join(' ')} / ${result.bareRounds.join(' ')}`,
      );
      return result;
    });
    const results = {
      date: new Date(started).toISOString(),
      cpus: os.cpus().length,
      node: process.version,
      loadBefore: loadBefore.map((l) => Number(l.toFixed(2))),
      loadAfter: loadAfter.map((l) => Number(l.toFixed(2))),
      rounds: ROUNDS,
      secondsPerRound: SECONDS,
      connections: CONNECTIONS,
      // Outpost logs one line per request: the lines it wrote over the rounds against the requests autocannon made.
      logLines: logLines - linesBefore,
      outpostRequests,
      rows,
    };
    writeFileSync(join(ROOT, 'bench', 'results', 'http.json'), JSON.stringify(results, null, 2) + '\n');
    writeFileSync(join(ROOT, 'bench', 'results', 'http.md'), markdown(results));
  } finally {
    bare?.child.kill();
    outpost.kill('SIGTERM');
    await new Promise((resolve) => outpost.once('exit', resolve));
    await sql(ADMIN_URL, (client) => client.query(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`));
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(directory, { recursive: true, force: true });
  }
}

function markdown(r) {
  const lines = [
    '# HTTP stack benchmark',
    '',
    `Run ${r.date} on ${r.cpus} CPUs, node ${r.node}, load average ${r.loadBefore.join(' / ')} before and ${r.loadAfter.join(' / ')} after; autocannon, ${r.connections} connections, ${r.rounds} rounds of ${r.secondsPerRound} s per row (Outpost, then the bare server, back to back), medians over the rounds.`,
    `Outpost: \`node dist/main.js\` as \`npm start\` runs it (LOG_LEVEL=info, JSON lines to a pipe: ${r.logLines} lines for about ${r.outpostRequests} requests). The bare server: node:http answering the same status, headers and body.`,
    '',
    '| row | Outpost req/s | bare req/s | Outpost / bare | p50 ms (Outpost / bare) | non-2xx | rounds (Outpost / bare) | steal % |',
    '|---|---:|---:|---:|---|---:|---|---:|',
    ...r.rows.map(
      (row) =>
        `| ${row.name} | ${row.outpostRequestsPerSecond} | ${row.bareRequestsPerSecond} | ${(row.ratio * 100).toFixed(0)}% | ${row.outpostP50} / ${row.bareP50} | ${row.non2xx} | ${row.outpostRounds.join(', ')} / ${row.bareRounds.join(', ')} | ${row.stealPercent} |`,
    ),
    '',
    '## Target',
    '',
    ...r.rows.map(
      (row) =>
        `- ${row.ratio >= TARGET ? 'met' : 'NOT met'}: ${row.name} ≥ ${TARGET * 100}% of the bare server (${(row.ratio * 100).toFixed(0)}%)`,
    ),
    '',
  ];
  return lines.join('\n');
}

mkdirSync(join(ROOT, 'bench', 'results'), { recursive: true });
await main();
