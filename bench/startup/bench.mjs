/*
 * `npm run bench:startup`: what a new user waits for. A fresh clone of this repository (its HEAD) in a temporary
 * folder, `npm ci` (not timed), then `npm start` with no DATABASE_URL, timed to the first 200 from /health:
 *   cold: the first start (build, initdb, migrations); warm: the next start on the same data (no build).
 * Then the memory (PSS) of the idle server and of its embedded PostgreSQL (every process of the cluster).
 * Each is run BENCH_ROUNDS times (default 3, cold on a new data folder each time); medians are reported.
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';

const repo = join(import.meta.dirname, '..', '..');
const rounds = Number(process.env.BENCH_ROUNDS ?? 4); // the first cold start also builds: reported apart
const clone = mkdtempSync(join(tmpdir(), 'outpost-startup-clone-'));
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

console.log(`cloning into ${clone} and installing (not timed)`);
execFileSync('git', ['clone', '-q', repo, clone]);
execFileSync('npm', ['ci', '--no-audit', '--no-fund'], { cwd: clone, stdio: 'ignore' });

async function start(dataDir, port) {
  const began = performance.now();
  const child = spawn('npm', ['start'], {
    cwd: clone,
    env: { ...process.env, DATABASE_URL: '', OUTPOST_DATA_DIR: dataDir, PORT: String(port), LOG_LEVEL: 'warn' },
    stdio: 'ignore',
    detached: true,
  });
  for (;;) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/health`)).status === 200) break;
    } catch {}
    if (performance.now() - began > 300_000) throw new Error('no healthy server after 300 s');
    await sleep(20);
  }
  return { child, ms: performance.now() - began };
}

async function stop(child) {
  process.kill(-child.pid, 'SIGTERM');
  await new Promise((resolve) => child.once('exit', resolve));
  await sleep(500);
}

/**
 * kB of memory of a process and its descendants, from /proc: the proportional set size (shared pages, such as
 * PostgreSQL's shared buffers, counted once across the processes that share them).
 */
function pssTree(pid, only = () => true) {
  const children = (p) => {
    try {
      return readFileSync(`/proc/${p}/task/${p}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
    } catch {
      return [];
    }
  };
  const pss = (p) => {
    try {
      return Number(/Pss:\s+(\d+)/.exec(readFileSync(`/proc/${p}/smaps_rollup`, 'utf8'))?.[1] ?? 0);
    } catch {
      return 0;
    }
  };
  const nodes = [];
  const walk = (p) => (nodes.push(p), children(p).forEach(walk));
  walk(pid);
  return nodes.filter(only).reduce((sum, p) => sum + pss(p), 0);
}

const cold = [];
const warm = [];
const serverMb = [];
const postgresMb = [];
const port = 4690;
for (let round = 0; round < rounds; round++) {
  const dataDir = mkdtempSync(join(tmpdir(), 'outpost-startup-data-'));
  if (round === 0) rmSync(join(clone, 'dist'), { recursive: true, force: true }); // the very first start builds
  const first = await start(dataDir, port);
  cold.push(first.ms);
  await stop(first.child);
  const second = await start(dataDir, port);
  warm.push(second.ms);
  await sleep(5_000);
  const postmaster = Number(readFileSync(join(dataDir, 'postgres', 'postmaster.pid'), 'utf8').split('\n')[0]);
  const isOutpost = (p) => readFileSync(`/proc/${p}/cmdline`, 'utf8').includes('bin/outpost.js');
  serverMb.push(pssTree(second.child.pid, isOutpost) / 1024);
  postgresMb.push(pssTree(postmaster) / 1024);
  await stop(second.child);
  rmSync(dataDir, { recursive: true, force: true });
  console.log(`round ${round + 1}: cold ${first.ms.toFixed(0)} ms, warm ${second.ms.toFixed(0)} ms`);
}

const results = {
  date: new Date().toISOString(),
  load_average: loadavg().map((n) => Number(n.toFixed(2))),
  rounds,
  cold_first_with_build_ms: Math.round(cold[0]),
  cold_ms_median: Math.round(median(cold.slice(1))),
  warm_ms_median: Math.round(median(warm)),
  cold_ms: cold.slice(1).map(Math.round),
  warm_ms: warm.map(Math.round),
  idle_rss_mb: { server_median: Number(median(serverMb).toFixed(1)), postgres_median: Number(median(postgresMb).toFixed(1)) },
};
const out = join(repo, 'bench', 'results');
writeFileSync(join(out, 'startup.json'), JSON.stringify(results, null, 2) + '\n');
writeFileSync(
  join(out, 'startup.md'),
  `# bench:startup (${results.date}, load ${results.load_average.join(' / ')})\n\n` +
    `| | median | rounds |\n|---|---:|---|\n` +
    `| first \`npm start\` of a fresh clone (build + initdb + migrations) | ${results.cold_first_with_build_ms} ms | 1 |\n` +
    `| first start on a new data folder (initdb + migrations, build current) | ${results.cold_ms_median} ms | ${results.cold_ms.join(', ')} |\n` +
    `| warm start (existing data) | ${results.warm_ms_median} ms | ${results.warm_ms.join(', ')} |\n` +
    `| idle memory (PSS): the Outpost server process | ${results.idle_rss_mb.server_median} MB | |\n` +
    `| idle memory (PSS): embedded PostgreSQL, all its processes | ${results.idle_rss_mb.postgres_median} MB | |\n`,
);
rmSync(clone, { recursive: true, force: true });
console.log(JSON.stringify(results, null, 2));

