/*
 * `npm run bench:gateway`: the same chat-completions request sent straight to a scripted upstream on loopback,
 * through a bare undici relay (on node:http, the same relay as a plain Fastify route, and one forwarding the way
 * Outpost does, with its own undici Agent and a dispatch handler), through Portkey's open-source gateway
 * (`@portkey-ai/gateway`, `x-portkey-provider: openai` with `x-portkey-custom-host`), and through Outpost's
 * gateway with everything on (a route, a key with allowed models and rate limits, budgets, the per-request log:
 * key check, controls, hold, forward, usage, settle), in one run: latency at concurrency 1 (sequential
 * requests timed one by one) and throughput at 10 and 50 connections (autocannon), in BENCH_ROUNDS rounds (3) whose
 * medians are reported. Latency at concurrency 1 is taken twice per round: first right after the path sat idle
 * while the others were measured (V8 is then recompiling what the idle time deoptimized, on the same two cores),
 * then again once the path has answered BENCH_SETTLE (10,000) sequential requests and V8 has settled. Then the time
 * to the first byte of a stream; 1,000 concurrent slow streams through Outpost (every stream's longest pause
 * between chunks, and the server's peak RSS); last, the relay and Outpost again with
 * a 90 KB conversation, the size of a coding agent's request, and Outpost's RSS after them.
 * The database is BENCH_DATABASE_URL (default the local PostgreSQL; a scratch database is made and dropped).
 * Results in bench/results/gateway.{json,md}.
 */
import autocannon from 'autocannon';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { Agent, Pool, request } from 'undici';
import { SERVER_NODE_ARGS } from '../outpost-process.mjs';

const root = join(import.meta.dirname, '..', '..');
const adminUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const duration = Number(process.env.BENCH_DURATION ?? 5);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const listen = (server) => new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server.address().port)));

// The upstream: OpenAI chat completions, a whole answer or a stream of 20 chunks, with usage.
const answer = JSON.stringify({
  id: 'c', object: 'chat.completion', created: 1, model: 'small',
  choices: [{ index: 0, message: { role: 'assistant', content: 'hello there' }, finish_reason: 'stop' }],
  usage: { prompt_tokens: 20, completion_tokens: 5, total_tokens: 25 },
});
const SLOW_CHUNKS = 10;
const SLOW_EVERY_MS = 500;
const upstream = createServer((req, res) => {
  let body = '';
  req.on('data', (c) => (body += c));
  req.on('end', () => {
    const parsed = JSON.parse(body);
    if (parsed.model === 'slow') {
      // A slow stream: a chunk every 500 ms, then usage.
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      let sent = 0;
      const timer = setInterval(() => {
        if (sent++ < SLOW_CHUNKS) return res.write(`data: {"choices":[{"index":0,"delta":{"content":"s${sent} "}}]}\n\n`);
        clearInterval(timer);
        res.end('data: {"choices":[],"usage":{"prompt_tokens":5,"completion_tokens":10}}\n\ndata: [DONE]\n\n');
      }, SLOW_EVERY_MS);
      res.on('close', () => clearInterval(timer));
      return;
    }
    if (!parsed.stream) return res.writeHead(200, { 'content-type': 'application/json' }).end(answer);
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    for (let i = 0; i < 20; i++) res.write(`data: {"choices":[{"index":0,"delta":{"content":"w${i} "}}]}\n\n`);
    res.write('data: {"choices":[],"usage":{"prompt_tokens":20,"completion_tokens":20}}\n\ndata: [DONE]\n\n');
    res.end();
  });
});
const upstreamPort = await listen(upstream);

// A bare relay in its own process (bench/gateway/relay.mjs), so its CPU time per request can be compared with Outpost's.
const relay = spawn(process.execPath, [join(import.meta.dirname, 'relay.mjs'), String(upstreamPort)], { stdio: ['ignore', 'pipe', 'inherit'] });
const relayPort = Number(await new Promise((resolve) => relay.stdout.once('data', (d) => resolve(String(d).trim()))));
// The same relay on plain Fastify: the framework's own share of what Outpost adds.
const fastifyRelay = spawn(process.execPath, [join(import.meta.dirname, 'fastify-relay.mjs'), String(upstreamPort)], { stdio: ['ignore', 'pipe', 'inherit'] });
const fastifyRelayPort = Number(await new Promise((resolve) => fastifyRelay.stdout.once('data', (d) => resolve(String(d).trim()))));
// The relay as cheap as undici allows: the floor of forwarding as Outpost forwards.
const dispatchRelay = spawn(process.execPath, [join(import.meta.dirname, 'dispatch-relay.mjs'), String(upstreamPort)], { stdio: ['ignore', 'pipe', 'inherit'] });
const dispatchRelayPort = Number(await new Promise((resolve) => dispatchRelay.stdout.once('data', (d) => resolve(String(d).trim()))));
// Portkey's open-source gateway (npm @portkey-ai/gateway, a dev dependency), headless, on its own port.
const portkeyPort = 4791;
const portkey = spawn(process.execPath, [join(root, 'node_modules', '@portkey-ai', 'gateway', 'build', 'start-server.js'), `--port=${portkeyPort}`, '--headless'], { stdio: ['ignore', 'pipe', 'inherit'] });
await new Promise((resolve) => portkey.stdout.on('data', (d) => String(d).includes('Ready') && resolve()));

const name = `outpost_bench_gateway_${process.pid}`;
const admin = new pg.Client({ connectionString: adminUrl });
await admin.connect();
await admin.query(`CREATE DATABASE ${name}`);
const dbUrl = new URL(adminUrl);
dbUrl.pathname = `/${name}`;
const dir = mkdtempSync(join(tmpdir(), 'outpost-bench-gateway-'));
writeFileSync(join(dir, 'gateway.yaml'), `providers:\n  up:\n    base_url: http://127.0.0.1:${upstreamPort}/v1\n    schema: openai-chat\n    api_key_env: UP_KEY\n    models:\n      small: { prices: { input: 1, output: 2 } }\n      slow: { prices: { input: 1, output: 2 } }\nroutes:\n  smart:\n    deployments: [up/small]\n`);
const port = 4790;
const outpost = spawn(process.execPath, [...SERVER_NODE_ARGS, ...(process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean), join(root, 'dist', 'main.js')], {
  env: { ...process.env, DATABASE_URL: dbUrl.toString(), PORT: String(port), LOG_LEVEL: 'warn', OUTPOST_DATA_DIR: dir, OUTPOST_PASSWORD: 'x', OUTPOST_GATEWAY_CONFIG: join(dir, 'gateway.yaml'), UP_KEY: 'sk-up', OUTPOST_SURFACES: 'console,inference' },
  stdio: ['ignore', 'ignore', 'inherit'],
});
const base = `http://127.0.0.1:${port}`;
for (;;) {
  try {
    if ((await fetch(`${base}/health`)).ok) break;
  } catch {}
  await sleep(100);
}
const signup = await fetch(`${base}/console/api/auth/signup`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'bench@example.com', password: 'correct horse battery' }) });
const cookie = signup.headers.get('set-cookie').split(';')[0];
const asPerson = { cookie, origin: base, 'content-type': 'application/json' };
const org = (await (await fetch(`${base}/console/api/orgs`, { headers: asPerson })).json())[0].id;
const sa = await (await fetch(`${base}/console/api/orgs/${org}/service-accounts`, { method: 'POST', headers: asPerson, body: JSON.stringify({ name: 'bench' }) })).json();
// The key's controls are on (allowed models, requests and tokens a minute, set far above what the bench sends), so
// every call pays for them; the calls name the route, so the route's plan is made for each.
const controls = { allowed_models: ['smart', 'up/small', 'up/slow'], rate_limit: { requests_per_minute: 1_000_000, tokens_per_minute: 1_000_000_000 } };
const key = (await (await fetch(`${base}/console/api/orgs/${org}/service-accounts/${sa.id}/keys`, { method: 'POST', headers: asPerson, body: JSON.stringify({ name: 'b', permission: 'inference', ...controls }) })).json()).key;

const body = JSON.stringify({ model: 'up/small', max_tokens: 50, messages: [{ role: 'user', content: 'hello' }] });
const routedBody = body.replace('"up/small"', '"smart"');
const targets = {
  direct: { url: `http://127.0.0.1:${upstreamPort}/v1/chat/completions`, headers: { 'content-type': 'application/json' } },
  relay: { url: `http://127.0.0.1:${relayPort}/v1/chat/completions`, headers: { 'content-type': 'application/json' } },
  fastify_relay: { url: `http://127.0.0.1:${fastifyRelayPort}/v1/chat/completions`, headers: { 'content-type': 'application/json' } },
  dispatch_relay: { url: `http://127.0.0.1:${dispatchRelayPort}/v1/chat/completions`, headers: { 'content-type': 'application/json' } },
  portkey: { url: `http://127.0.0.1:${portkeyPort}/v1/chat/completions`, headers: { 'content-type': 'application/json', authorization: 'Bearer sk-up', 'x-portkey-provider': 'openai', 'x-portkey-custom-host': `http://127.0.0.1:${upstreamPort}/v1` } },
  outpost: { url: `${base}/inference/openai/v1/chat/completions`, headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` }, body: routedBody },
};
// A coding agent's request is a long conversation: the same paths with a 90 KB body.
const turns = Array.from({ length: 60 }, (_, i) => ({ role: i % 2 ? 'assistant' : 'user', content: `function f${i}(x) {\n  return x * 2; // ${'x'.repeat(1500)}\n}` }));
const largeBody = JSON.stringify({ model: 'up/small', max_tokens: 50, messages: turns });
const largeTargets = {
  relay_90kb: { ...targets.relay, body: largeBody },
  outpost_90kb: { ...targets.outpost, body: largeBody },
};
const run = (target, connections, seconds = duration) =>
  autocannon({ url: target.url, method: 'POST', headers: target.headers, body: target.body ?? body, connections, duration: seconds });

/**
 * Concurrency 1: `count` requests one after another on one kept-alive connection, each timed, after `warmUp`
 * untimed ones. Right after a server was idle for half a minute, V8 recompiles for a few thousand requests what
 * the idle time deoptimized (sockets closed, a memory-reducing collection), and its compiler threads take CPU from
 * the processes in the call: in a probe of Outpost, p99 was 3 to 4 ms in the first thousand requests after 30 s
 * of idle and 0.5 to 1.2 ms after 10,000, its compiler threads then quiet. Both states are reported.
 */
async function sequential(target, { count = Number(process.env.BENCH_SEQUENTIAL ?? 1500), warmUp = 300 } = {}) {
  const pool = new Pool(new URL(target.url).origin, { connections: 1 });
  const times = [];
  let failed = 0;
  for (let i = 0; i < count + warmUp; i++) {
    const t0 = performance.now();
    const res = await pool.request({ path: new URL(target.url).pathname, method: 'POST', headers: target.headers, body: target.body ?? body });
    await res.body.text();
    if (res.statusCode !== 200) failed++;
    if (i >= warmUp) times.push(performance.now() - t0);
  }
  await pool.close();
  times.sort((a, b) => a - b);
  const at = (q) => Number(times[Math.floor(q * (times.length - 1))].toFixed(3));
  return { p50: at(0.5), p99: at(0.99), failed };
}

/** CPU seconds (user + system) a process has used: a figure the machine's other load does not inflate. */
const cpuSeconds = (pid) => {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
};
const serverPid = { relay: relay.pid, fastify_relay: fastifyRelay.pid, dispatch_relay: dispatchRelay.pid, portkey: portkey.pid, outpost: outpost.pid, relay_90kb: relay.pid, outpost_90kb: outpost.pid };

/** Outpost's resident memory now, in MB. */
const rssMb = () => {
  const line = readFileSync(`/proc/${outpost.pid}/status`, 'utf8').split('\n').find((l) => l.startsWith('VmRSS:'));
  return Math.round(Number(line.split(/\s+/)[1]) / 1024);
};

/** The middle value (the mean of the two middle ones for an even count). */
const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

// The machine is shared and its load moves: every path is measured once per round, the rounds one after another,
// and each figure is the median over the rounds (ratios are taken within a round, then their median).
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const settleCount = Number(process.env.BENCH_SETTLE ?? 10_000);
const results = { date: new Date().toISOString(), load_average: loadavg().map((n) => Number(n.toFixed(2))), duration_s: duration, rounds, settle_requests: settleCount, rows: {} };
/** Every path of `set` once per round; each row's figures are the medians over the rounds. */
async function measure(set) {
  const perRound = [];
  for (let round = 0; round < rounds; round++) {
    const rows = {};
    for (const [label, target] of Object.entries(set)) {
      const afterIdle = await sequential(target);
      const one = await sequential(target, { warmUp: settleCount }); // the same, once V8 has settled
      await run(target, 10, 2); // warm-up, outside the CPU window
      const cpuBefore = serverPid[label] && cpuSeconds(serverPid[label]);
      const ten = await run(target, 10);
      const cpuUs = serverPid[label] && Math.round(((cpuSeconds(serverPid[label]) - cpuBefore) * 1e6) / ten.requests.total);
      const fifty = await run(target, 50);
      rows[label] = {
        c1_p50_ms: one.p50, c1_p99_ms: one.p99, c1_after_idle_p50_ms: afterIdle.p50, c1_after_idle_p99_ms: afterIdle.p99,
        c10_rps: Math.round(ten.requests.average), c50_rps: Math.round(fifty.requests.average),
        non2xx: afterIdle.failed + one.failed + ten.non2xx + fifty.non2xx,
        ...(cpuUs ? { server_cpu_us_per_request: cpuUs } : {}),
      };
      console.log(`round ${round + 1}`, label, rows[label]);
    }
    perRound.push(rows);
  }
  for (const label of Object.keys(set)) {
    const of = (metric) => perRound.map((rows) => rows[label][metric]);
    results.rows[label] = {
      c1_p50_ms: Number(median(of('c1_p50_ms')).toFixed(3)),
      c1_p99_ms: Number(median(of('c1_p99_ms')).toFixed(3)),
      c1_after_idle_p50_ms: Number(median(of('c1_after_idle_p50_ms')).toFixed(3)),
      c1_after_idle_p99_ms: Number(median(of('c1_after_idle_p99_ms')).toFixed(3)),
      c10_rps: Math.round(median(of('c10_rps'))),
      c50_rps: Math.round(median(of('c50_rps'))),
      non2xx: of('non2xx').reduce((a, b) => a + b, 0),
      ...(serverPid[label] ? { server_cpu_us_per_request: Math.round(median(of('server_cpu_us_per_request'))) } : {}),
    };
  }
  return perRound;
}
const perRound = await measure(targets);
const withinRounds = (compute, of = perRound) => Number(median(of.map(compute)).toFixed(3));

// Time to the first byte of a stream, 200 sequential requests each, direct and through Outpost.
async function ttfb(target) {
  const times = [];
  for (let i = 0; i < 200; i++) {
    const t0 = performance.now();
    const res = await request(target.url, { method: 'POST', headers: target.headers, body: body.replace('"max_tokens":50', '"max_tokens":50,"stream":true') });
    const reader = res.body[Symbol.asyncIterator]();
    await reader.next();
    times.push(performance.now() - t0);
    for await (const _ of { [Symbol.asyncIterator]: () => reader }) void _;
  }
  times.sort((a, b) => a - b);
  return { p50_ms: Number(times[100].toFixed(3)), p99_ms: Number(times[198].toFixed(3)) };
}
results.stream_ttfb = { direct: await ttfb(targets.direct), outpost: await ttfb(targets.outpost) };
const r = results.rows;
// 1,000 slow streams at once through Outpost: each one's longest pause between chunks, and the server's memory.
async function slowStreams(count = Number(process.env.BENCH_STREAMS ?? 1000)) {
  const agent = new Agent({ connections: null, pipelining: 0 });
  let peakRssMb = 0;
  const rss = () => (peakRssMb = Math.max(peakRssMb, rssMb()));
  rss();
  const idleRssMb = peakRssMb;
  const sampler = setInterval(rss, 100);
  const slowBody = JSON.stringify({ model: 'up/slow', stream: true, max_tokens: 50, messages: [{ role: 'user', content: 'hello' }] });
  const t0 = performance.now();
  const outcomes = await Promise.all(
    Array.from({ length: count }, async () => {
      const res = await request(targets.outpost.url, { method: 'POST', headers: targets.outpost.headers, body: slowBody, dispatcher: agent });
      let last = performance.now();
      let longest = 0;
      let text = '';
      for await (const chunk of res.body) {
        const now = performance.now();
        longest = Math.max(longest, now - last);
        last = now;
        text += chunk;
      }
      return { ok: res.statusCode === 200 && text.includes('[DONE]'), longest };
    }),
  );
  clearInterval(sampler);
  await agent.close();
  const pauses = outcomes.map((o) => o.longest).sort((a, b) => a - b);
  return {
    streams: count,
    completed: outcomes.filter((o) => o.ok).length,
    seconds: Number(((performance.now() - t0) / 1000).toFixed(2)),
    longest_pause_p50_ms: Number(pauses[Math.floor(count / 2)].toFixed(1)),
    longest_pause_max_ms: Number(pauses[count - 1].toFixed(1)),
    stalled_over_2s: pauses.filter((p) => p > 2000).length,
    server_rss_idle_mb: Math.round(idleRssMb),
    server_rss_peak_mb: Math.round(peakRssMb),
  };
}
results.slow_streams = await slowStreams();
console.log('slow streams', results.slow_streams);
// Then the long conversations, and the server's memory after them (V8 keeps the heap it grew for a while).
const largePerRound = await measure(largeTargets);
results.rss_after_90kb_mb = rssMb();
results.added = {
  c1_p50_ms: withinRounds((rows) => rows.outpost.c1_p50_ms - rows.direct.c1_p50_ms),
  c1_p99_ms: withinRounds((rows) => rows.outpost.c1_p99_ms - rows.direct.c1_p99_ms),
  c1_after_idle_p50_ms: withinRounds((rows) => rows.outpost.c1_after_idle_p50_ms - rows.direct.c1_after_idle_p50_ms),
  c1_after_idle_p99_ms: withinRounds((rows) => rows.outpost.c1_after_idle_p99_ms - rows.direct.c1_after_idle_p99_ms),
  c10_share_of_relay: withinRounds((rows) => rows.outpost.c10_rps / rows.relay.c10_rps),
  c50_share_of_relay: withinRounds((rows) => rows.outpost.c50_rps / rows.relay.c50_rps),
  c10_times_portkey: withinRounds((rows) => rows.outpost.c10_rps / rows.portkey.c10_rps),
  c50_times_portkey: withinRounds((rows) => rows.outpost.c50_rps / rows.portkey.c50_rps),
  portkey_c1_p50_ms: withinRounds((rows) => rows.portkey.c1_p50_ms - rows.direct.c1_p50_ms),
  portkey_c1_p99_ms: withinRounds((rows) => rows.portkey.c1_p99_ms - rows.direct.c1_p99_ms),
  portkey_c1_after_idle_p50_ms: withinRounds((rows) => rows.portkey.c1_after_idle_p50_ms - rows.direct.c1_after_idle_p50_ms),
  portkey_c1_after_idle_p99_ms: withinRounds((rows) => rows.portkey.c1_after_idle_p99_ms - rows.direct.c1_after_idle_p99_ms),
  c10_share_of_fastify_relay: withinRounds((rows) => rows.outpost.c10_rps / rows.fastify_relay.c10_rps),
  c10_share_of_dispatch_relay: withinRounds((rows) => rows.outpost.c10_rps / rows.dispatch_relay.c10_rps),
  c10_share_of_relay_90kb: withinRounds((rows) => rows.outpost_90kb.c10_rps / rows.relay_90kb.c10_rps, largePerRound),
  c1_p50_ms_over_relay_90kb: withinRounds((rows) => rows.outpost_90kb.c1_p50_ms - rows.relay_90kb.c1_p50_ms, largePerRound),
  stream_ttfb_p50_ms: Number((results.stream_ttfb.outpost.p50_ms - results.stream_ttfb.direct.p50_ms).toFixed(3)),
};
outpost.kill('SIGTERM');
await sleep(1000);
await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
await admin.end();
upstream.close();
relay.kill();
fastifyRelay.kill();
dispatchRelay.kill();
portkey.kill();
writeFileSync(join(root, 'bench', 'results', 'gateway.json'), JSON.stringify(results, null, 2) + '\n');
writeFileSync(
  join(root, 'bench', 'results', 'gateway.md'),
  `# bench:gateway (${results.date}, load ${results.load_average.join(' / ')})\n\n` +
    `| path | c=1 p50 | c=1 p99 | c=1 p50 after idle | c=1 p99 after idle | c=10 req/s | c=50 req/s | server CPU per request at c=10 |\n|---|---:|---:|---:|---:|---:|---:|---:|\n` +
    Object.entries(r).map(([k, v]) => `| ${k} | ${v.c1_p50_ms} ms | ${v.c1_p99_ms} ms | ${v.c1_after_idle_p50_ms} ms | ${v.c1_after_idle_p99_ms} ms | ${v.c10_rps} | ${v.c50_rps} | ${v.server_cpu_us_per_request ? `${v.server_cpu_us_per_request} µs` : '–'} |`).join('\n') +
    `\n\nc=1 is timed after ${settleCount} sequential requests (V8 settled), and \"after idle\" right after the path sat idle while the others were measured (300 requests of warm-up).\n\n` +
    `Added by Outpost at c=1: p50 ${results.added.c1_p50_ms} ms, p99 ${results.added.c1_p99_ms} ms (after idle: p50 ${results.added.c1_after_idle_p50_ms} ms, p99 ${results.added.c1_after_idle_p99_ms} ms); throughput: ${(results.added.c10_share_of_relay * 100).toFixed(0)}% of the bare relay at c=10 and ${(results.added.c50_share_of_relay * 100).toFixed(0)}% at c=50, ${results.added.c10_times_portkey}× Portkey's at c=10 and ${results.added.c50_times_portkey}× at c=50 (Portkey adds p50 ${results.added.portkey_c1_p50_ms} ms, p99 ${results.added.portkey_c1_p99_ms} ms at c=1; after idle p50 ${results.added.portkey_c1_after_idle_p50_ms} ms, p99 ${results.added.portkey_c1_after_idle_p99_ms} ms); at c=10 (${(results.added.c10_share_of_fastify_relay * 100).toFixed(0)}% of the Fastify relay, ${(results.added.c10_share_of_dispatch_relay * 100).toFixed(0)}% of the dispatch relay); with a 90 KB conversation ${(results.added.c10_share_of_relay_90kb * 100).toFixed(0)}% of the bare relay, ${results.added.c1_p50_ms_over_relay_90kb} ms over it at c=1 p50; ` +
    `stream time to first byte p50: direct ${results.stream_ttfb.direct.p50_ms} ms, Outpost ${results.stream_ttfb.outpost.p50_ms} ms (added ${results.added.stream_ttfb_p50_ms} ms).\n\n` +
    `${results.slow_streams.streams} concurrent slow streams (10 chunks, one every ${SLOW_EVERY_MS} ms): ${results.slow_streams.completed} of ${results.slow_streams.streams} completed in ${results.slow_streams.seconds} s; ` +
    `longest pause between chunks p50 ${results.slow_streams.longest_pause_p50_ms} ms, max ${results.slow_streams.longest_pause_max_ms} ms; ${results.slow_streams.stalled_over_2s} stalled over 2 s; ` +
    `server RSS ${results.slow_streams.server_rss_idle_mb} MB before, ${results.slow_streams.server_rss_peak_mb} MB at most; ${results.rss_after_90kb_mb} MB after the 90 KB rows that follow.\n`,
);
console.log(JSON.stringify(results, null, 2));
process.exit(0);
