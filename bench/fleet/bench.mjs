/**
 * `npm run bench:fleet`: gateway throughput through nginx with 1, 2 and 3 console+gateway nodes on one PostgreSQL,
 * on this machine. The same non-streamed chat call (scripted upstream on loopback) at 50 connections for
 * BENCH_SECONDS (default 8) per round, BENCH_ROUNDS (default 3) rounds per node count, alternating; medians.
 * Reports requests per second and each node's CPU per request (from /proc/<pid>/stat). Writes
 * bench/results/fleet.json and bench/results/fleet.md.
 */
import autocannon from 'autocannon';
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ADMIN_URL, dbUrl, freePort, median, ROOT, SERVER_NODE_ARGS, sql, waitFor } from '../outpost-process.mjs';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CONNECTIONS = 50;
const TICKS = 100; // clock ticks a second (getconf CLK_TCK on Linux)

const answer = JSON.stringify({
  id: 'c', object: 'chat.completion', created: 1, model: 'small',
  choices: [{ index: 0, message: { role: 'assistant', content: 'hello there' }, finish_reason: 'stop' }],
  usage: { prompt_tokens: 20, completion_tokens: 5, total_tokens: 25 },
});
const upstream = createServer((req, res) => {
  req.resume();
  req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end(answer));
});
const upstreamPort = await freePort();
await new Promise((resolve) => upstream.listen(upstreamPort, '127.0.0.1', resolve));

const database = `outpost_bench_fleet_${process.pid}`;
await sql(ADMIN_URL, (c) => c.query(`CREATE DATABASE "${database}"`));
const dir = mkdtempSync(join(tmpdir(), 'outpost-bench-fleet-'));
writeFileSync(join(dir, 'gateway.yaml'), `providers:\n  up:\n    base_url: http://127.0.0.1:${upstreamPort}/v1\n    schema: openai-chat\n    api_key_env: UP_KEY\n    models:\n      small: { prices: { input: 1, output: 2 } }\n`);

const ports = [await freePort(), await freePort(), await freePort()];
const proxyPort = await freePort();
const nodes = ports.map((port, i) =>
  spawn(process.execPath, [...SERVER_NODE_ARGS, join(ROOT, 'dist', 'main.js')], {
    env: {
      PATH: process.env.PATH, HOME: process.env.HOME, HOST: '127.0.0.1', PORT: String(port),
      DATABASE_URL: dbUrl(database), OUTPOST_DATA_DIR: join(dir, `node${i}`), OUTPOST_SURFACES: 'console,inference',
      OUTPOST_SECRET_KEY: 'bench-fleet-secret-0123456789abcdef', OUTPOST_GATEWAY_CONFIG: join(dir, 'gateway.yaml'),
      UP_KEY: 'sk-up', OUTPOST_TRUST_PROXY: '127.0.0.1', OUTPOST_CONSOLE_ORIGIN: `http://127.0.0.1:${proxyPort}`,
      LOG_LEVEL: 'warn', NODE_ENV: 'production',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  }),
);
for (const port of ports) await waitFor(`http://127.0.0.1:${port}/health/ready`);

/** nginx in front of the first `count` nodes (the same settings as docker/nginx.fleet.conf). */
function startProxy(count) {
  const prefix = mkdtempSync(join(tmpdir(), 'outpost-bench-nginx-'));
  mkdirSync(join(prefix, 'logs'));
  const servers = ports.slice(0, count).map((port) => `server 127.0.0.1:${port};`).join(' ');
  writeFileSync(join(prefix, 'nginx.conf'), `worker_processes 1; pid ${prefix}/nginx.pid; error_log ${prefix}/logs/error.log warn;
events { worker_connections 4096; }
http { access_log off; client_body_temp_path ${prefix}/body; proxy_temp_path ${prefix}/proxy;
  upstream outpost { ${servers} keepalive 64; }
  server { listen 127.0.0.1:${proxyPort};
    location / { proxy_pass http://outpost; proxy_http_version 1.1; proxy_set_header Connection ""; proxy_set_header Host $http_host;
      proxy_set_header X-Forwarded-For $remote_addr; proxy_buffering off; proxy_request_buffering off;
      proxy_next_upstream error timeout http_503; } } }`);
  return spawn('nginx', ['-p', prefix, '-c', join(prefix, 'nginx.conf'), '-g', 'daemon off;'], { stdio: 'ignore' });
}

const cpu = (pid) => {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) / TICKS; // utime + stime, seconds
};

let proxy = startProxy(3);
const base = `http://127.0.0.1:${proxyPort}`;
await waitFor(`${base}/health/live`);
const json = { 'content-type': 'application/json', origin: base };
const signup = await fetch(`${base}/console/api/auth/signup`, { method: 'POST', headers: json, body: JSON.stringify({ email: 'fleet@example.com', password: 'correct horse battery' }) });
const asPerson = { ...json, cookie: signup.headers.get('set-cookie').split(';')[0] };
const org = (await (await fetch(`${base}/console/api/orgs`, { headers: asPerson })).json())[0].id;
const sa = await (await fetch(`${base}/console/api/orgs/${org}/service-accounts`, { method: 'POST', headers: asPerson, body: JSON.stringify({ name: 'bench' }) })).json();
const key = (await (await fetch(`${base}/console/api/orgs/${org}/service-accounts/${sa.id}/keys`, { method: 'POST', headers: asPerson, body: JSON.stringify({ name: 'b', permission: 'inference' }) })).json()).key;
const body = JSON.stringify({ model: 'up/small', max_tokens: 50, messages: [{ role: 'user', content: 'hello' }] });

async function round(count) {
  proxy.kill('SIGQUIT');
  await new Promise((resolve) => proxy.once('exit', resolve));
  proxy = startProxy(count);
  await waitFor(`${base}/health/live`);
  const before = nodes.map((node) => cpu(node.pid));
  const result = await autocannon({
    url: `${base}/inference/openai/v1/chat/completions`, method: 'POST', connections: CONNECTIONS, duration: SECONDS,
    headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` }, body,
  });
  const used = nodes.map((node, i) => cpu(node.pid) - before[i]);
  const requests = result.requests.total;
  return {
    rps: result.requests.average,
    errors: result.errors + result.non2xx,
    p50: result.latency.p50,
    p99: result.latency.p99,
    cpuPerRequestUs: used.slice(0, count).map((seconds) => Math.round((seconds / (requests / count)) * 1e6)),
  };
}

const results = { 1: [], 2: [], 3: [] };
for (let r = 0; r < ROUNDS; r++) for (const count of [1, 2, 3]) results[count].push(await round(count));
const summary = Object.fromEntries(
  Object.entries(results).map(([count, rounds]) => [
    count,
    {
      rps: Math.round(median(rounds.map((x) => x.rps))),
      p50_ms: median(rounds.map((x) => x.p50)),
      p99_ms: median(rounds.map((x) => x.p99)),
      errors: rounds.reduce((sum, x) => sum + x.errors, 0),
      cpu_per_request_us_per_node: rounds[0].cpuPerRequestUs.map((_, i) => Math.round(median(rounds.map((x) => x.cpuPerRequestUs[i])))),
    },
  ]),
);
const report = { date: new Date().toISOString(), cores: (await import('node:os')).cpus().length, connections: CONNECTIONS, seconds: SECONDS, rounds: ROUNDS, summary };
mkdirSync(join(ROOT, 'bench', 'results'), { recursive: true });
writeFileSync(join(ROOT, 'bench', 'results', 'fleet.json'), JSON.stringify(report, null, 2) + '\n');
const rows = Object.entries(summary).map(([n, s]) => `| ${n} | ${s.rps} | ${s.p50_ms} | ${s.p99_ms} | ${s.errors} | ${s.cpu_per_request_us_per_node.join(' / ')} |`);
writeFileSync(join(ROOT, 'bench', 'results', 'fleet.md'), `# bench:fleet, ${report.date}\n\nGateway calls through nginx, ${CONNECTIONS} connections, ${SECONDS} s per round, median of ${ROUNDS} rounds, ${report.cores} cores.\n\n| nodes | req/s | p50 ms | p99 ms | errors | CPU µs per request, per node |\n|---:|---:|---:|---:|---:|---|\n${rows.join('\n')}\n`);
console.log(readFileSync(join(ROOT, 'bench', 'results', 'fleet.md'), 'utf8'));

proxy.kill('SIGQUIT');
for (const node of nodes) node.kill('SIGTERM');
await Promise.all(nodes.map((node) => new Promise((resolve) => node.once('exit', resolve))));
upstream.close();
await sql(ADMIN_URL, (c) => c.query(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`));
