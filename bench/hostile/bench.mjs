/*
 * `npm run bench:hostile`: while 20 anonymous clients post 10 MB bodies over and over and 20 more trickle a body
 * at one byte a second (slowloris), how fast does `/health` answer and how much memory does the server use?
 * A real `node dist/main.js` on a scratch database (BENCH_DATABASE_URL, default the local PostgreSQL).
 * Targets: /health p99 under 50 ms, server RSS under 400 MB. Results in bench/results/hostile.{json,md}.
 */
import { spawn } from 'node:child_process';
import { request } from 'node:http';
import { connect } from 'node:net';
import { readFileSync, writeFileSync, mkdtempSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

const root = join(import.meta.dirname, '..', '..');
const adminUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const seconds = Number(process.env.BENCH_DURATION ?? 40); // past the 30 s request time-out: tricklers get cut
const port = 4780;
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

const name = `outpost_bench_hostile_${process.pid}`;
const admin = new pg.Client({ connectionString: adminUrl });
await admin.connect();
await admin.query(`CREATE DATABASE ${name}`);
const url = new URL(adminUrl);
url.pathname = `/${name}`;

const server = spawn(process.execPath, [join(root, 'dist', 'main.js')], {
  env: {
    ...process.env,
    DATABASE_URL: url.toString(),
    PORT: String(port),
    LOG_LEVEL: 'warn',
    OUTPOST_PASSWORD: 'bench',
    OUTPOST_DATA_DIR: mkdtempSync(join(tmpdir(), 'outpost-hostile-')),
  },
  stdio: 'ignore',
});
for (;;) {
  try {
    if ((await fetch(`http://127.0.0.1:${port}/health`)).ok) break;
  } catch {}
  await sleep(100);
}

let stop = false;
const big = Buffer.alloc(1024 * 1024, 'x');
let bigSent = 0;
let bigAnswers = {};
async function bigPoster() {
  while (!stop) {
    await new Promise((resolve) => {
      const req = request(
        { host: '127.0.0.1', port, method: 'POST', path: '/console/api/auth/login', headers: { 'content-type': 'application/json', 'content-length': 10 * 1024 * 1024 } },
        (res) => {
          bigAnswers[res.statusCode] = (bigAnswers[res.statusCode] ?? 0) + 1;
          res.resume();
          res.on('end', resolve);
        },
      );
      req.on('error', resolve);
      let chunks = 0;
      const write = () => {
        while (chunks < 10 && !stop) {
          chunks++;
          if (!req.write(big)) return req.once('drain', write);
        }
        req.end();
      };
      write();
      bigSent++;
    });
  }
}
let trickleCut = 0;
async function trickler() {
  while (!stop) {
    await new Promise((resolve) => {
      const socket = connect(port, '127.0.0.1', () => {
        socket.write('POST /console/api/auth/login HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: 1000\r\n\r\n');
        const timer = setInterval(() => socket.write(' '), 1000);
        socket.on('close', () => {
          clearInterval(timer);
          trickleCut++;
          resolve();
        });
      });
      socket.on('error', () => undefined);
      setTimeout(() => socket.destroy(), (seconds + 5) * 1000).unref();
    });
  }
}

const rss = () => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${server.pid}/status`, 'utf8'))[1]) / 1024;
const idleRss = rss();
const workers = [...Array.from({ length: 20 }, bigPoster), ...Array.from({ length: 20 }, trickler)];
const latencies = [];
let maxRss = 0;
const started = Date.now();
while (Date.now() - started < seconds * 1000) {
  const t0 = performance.now();
  const res = await fetch(`http://127.0.0.1:${port}/health`);
  await res.text();
  latencies.push(performance.now() - t0);
  maxRss = Math.max(maxRss, rss());
  await sleep(50);
}
stop = true;
server.kill('SIGKILL');
await Promise.race([Promise.allSettled(workers), sleep(3000)]);
await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
await admin.end();

latencies.sort((a, b) => a - b);
const results = {
  date: new Date().toISOString(),
  load_average: loadavg().map((n) => Number(n.toFixed(2))),
  seconds,
  health: {
    samples: latencies.length,
    p50_ms: Number(percentile(latencies, 50).toFixed(2)),
    p99_ms: Number(percentile(latencies, 99).toFixed(2)),
    max_ms: Number(latencies.at(-1).toFixed(2)),
  },
  rss_mb: { idle: Number(idleRss.toFixed(1)), max_under_attack: Number(maxRss.toFixed(1)) },
  ten_mb_posts_started: bigSent,
  ten_mb_answers: bigAnswers,
  tricklers_cut: trickleCut,
};
writeFileSync(join(root, 'bench', 'results', 'hostile.json'), JSON.stringify(results, null, 2) + '\n');
writeFileSync(
  join(root, 'bench', 'results', 'hostile.md'),
  `# bench:hostile (${results.date}, load ${results.load_average.join(' / ')})\n\n` +
    `20 clients posting 10 MB bodies to the public sign-in and 20 trickling 1 byte/s, for ${seconds} s.\n\n` +
    `| | figure | target |\n|---|---:|---:|\n` +
    `| /health p50 | ${results.health.p50_ms} ms | |\n| /health p99 | ${results.health.p99_ms} ms | < 50 ms |\n` +
    `| server RSS idle | ${results.rss_mb.idle} MB | |\n| server RSS max under attack | ${results.rss_mb.max_under_attack} MB | < 400 MB |\n` +
    `| 10 MB posts started / answers | ${bigSent} / ${JSON.stringify(bigAnswers)} | |\n| trickling connections cut | ${trickleCut} | |\n`,
);
console.log(JSON.stringify(results, null, 2));
process.exit(0);
