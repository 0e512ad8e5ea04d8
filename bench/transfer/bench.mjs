// `npm run bench:transfer`: starts `node dist/main.js` on a scratch database and measures
// 1. importing one session of 100,000 messages (time, and the server's RSS growth over idle), 2. exporting it (time, and the server's RSS growth against the
// transcript's JSON size), 3. stats over 1,000,000 messages in 10,000 sessions spread over a year (seeded with
// generate_series) in each tools mode. Results: bench/results/transfer.{json,md}.
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import os, { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ADMIN_URL, AUTH, dbUrl, freePort, median, ROOT, spawnOutpost, sql, waitFor } from '../outpost-process.mjs';

const MESSAGES = Number(process.env.BENCH_MESSAGES ?? 100_000);
const STATS_MESSAGES = Number(process.env.BENCH_STATS_MESSAGES ?? 1_000_000);
const STATS_SESSIONS = Number(process.env.BENCH_STATS_SESSIONS ?? 10_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const YEAR_MS = 365 * 24 * 3600 * 1000;

const rssBytes = (pid) => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]) * 1024;

/** A transcript like a real one: prompts, and assistant turns with reasoning, text and a tool call. */
function transcript(count) {
  const start = Date.UTC(2026, 0, 1);
  const prose = (i, n) => `Line ${i}: ${'the quick brown fox jumps over the lazy dog '.repeat(n)}`;
  return Array.from({ length: count }, (_, i) => {
    const id = `msg_${(0x100000000n + BigInt(i)).toString(16).padStart(16, '0')}benchBENCH01`;
    const created = start + i * 1000;
    if (i % 2 === 0) return { id, type: 'user', time: { created }, text: prose(i, 4) };
    return {
      id,
      type: 'assistant',
      time: { created, completed: created + 900 },
      agent: 'build',
      model: { id: 'claude-sonnet', providerID: 'anthropic' },
      content: [
        { type: 'reasoning', text: prose(i, 3) },
        { type: 'text', text: prose(i, 6) },
        {
          type: 'tool',
          id: `call_${i}`,
          name: ['read', 'bash', 'grep', 'edit'][i % 4],
          state: {
            status: 'completed',
            input: { path: `/src/file-${i}.ts` },
            content: [{ type: 'text', text: prose(i, 10) }],
          },
          time: { created: created + 100, ran: created + 150, completed: created + 800 },
        },
      ],
      finish: 'tool-calls',
      cost: 0.0123,
      tokens: { input: 1200, output: 300, reasoning: 50, cache: { read: 800, write: 100 } },
    };
  });
}

/** 1,000,000 messages in 10,000 sessions (a fifth of them children) over the year before `end`. */
async function seedStats(url, directory, end) {
  const started = Date.now();
  await sql(url, async (client) => {
    await client.query(
      `INSERT INTO session (id, parent_id, project_id, directory, subpath, agent, title, time_created, time_updated)
       SELECT 'ses_' || lpad(to_hex(i), 16, '0') || 'benchSTATS01',
              CASE WHEN i % 5 = 0 THEN 'ses_' || lpad(to_hex(i - 1), 16, '0') || 'benchSTATS01' END,
              'bench-project-' || (i % 4), $2, '',
              'build', 'Stats ' || i, $3::bigint - $4::bigint, $3::bigint
       FROM generate_series(1, $1::int) AS i`,
      [STATS_SESSIONS, directory, end, YEAR_MS],
    );
    await client.query(
      `INSERT INTO session_message (session_id, id, type, data, time_created, time_completed, tokens_input,
         tokens_output, tokens_reasoning, tokens_cache_read, tokens_cache_write, cost)
       SELECT 'ses_' || lpad(to_hex(1 + i % $2), 16, '0') || 'benchSTATS01',
              'msg_' || lpad(to_hex(i), 16, '0') || 'benchSTATS01',
              CASE WHEN i % 2 = 0 THEN 'user' ELSE 'assistant' END,
              CASE WHEN i % 2 = 0 THEN jsonb_build_object('text', 'prompt ' || i)
              ELSE jsonb_build_object(
                'agent', 'build',
                'model', jsonb_build_object('id', (ARRAY['sonnet', 'opus', 'gpt', 'gemini'])[1 + i % 4],
                                            'providerID', (ARRAY['anthropic', 'anthropic', 'openai', 'google'])[1 + i % 4]),
                'content', jsonb_build_array(
                  jsonb_build_object('type', 'text', 'text', 'answer ' || i),
                  jsonb_build_object('type', 'tool', 'id', 'call_' || i, 'name', (ARRAY['read', 'bash', 'grep', 'edit', 'glob'])[1 + i % 5],
                    'state', jsonb_build_object('status', (ARRAY['completed', 'completed', 'completed', 'error', 'running'])[1 + (i / 2) % 5],
                                                'input', '{}'::jsonb, 'content', '[]'::jsonb),
                    'time', jsonb_build_object('created', t, 'ran', t + 10, 'completed', t + 10 + (i % 997))),
                  jsonb_build_object('type', 'tool', 'id', 'call_b' || i, 'name', 'read',
                    'state', jsonb_build_object('status', 'completed', 'input', '{}'::jsonb, 'content', '[]'::jsonb),
                    'time', jsonb_build_object('created', t, 'completed', t + 5 + (i % 101)))))
              END,
              t, CASE WHEN i % 2 = 1 THEN t + 1000 END,
              CASE WHEN i % 2 = 1 THEN 1000 + i % 500 END, CASE WHEN i % 2 = 1 THEN 200 END,
              CASE WHEN i % 2 = 1 THEN 10 END, CASE WHEN i % 2 = 1 THEN 500 END, CASE WHEN i % 2 = 1 THEN 50 END,
              CASE WHEN i % 2 = 1 THEN 1234567 END
       FROM (SELECT i, $3::bigint - $4::bigint + (i::bigint * $4::bigint / $1::bigint) AS t
             FROM generate_series(1, $1::int) AS i) AS g`,
      [STATS_MESSAGES, STATS_SESSIONS, end, YEAR_MS],
    );
    // The triggers filled session_usage and session_tool_call in the same statements; vacuumed like the rest,
    // as autovacuum would have by the time anyone asks for a year of stats.
    for (const table of ['session', 'session_message', 'session_usage', 'session_tool_call'])
      await client.query(`VACUUM ANALYZE ${table}`);
  });
  return (Date.now() - started) / 1000;
}

/** `work` timed, with the server's RSS growth over idle while it ran (sampled every 5 ms). */
async function sampledRss(pid, work) {
  await new Promise((resolve) => setTimeout(resolve, 200));
  const baseline = rssBytes(pid);
  let peak = baseline;
  const sampler = setInterval(() => (peak = Math.max(peak, rssBytes(pid))), 5);
  try {
    const { ms, result } = await timed(work);
    peak = Math.max(peak, rssBytes(pid));
    return { ms, result, growth: peak - baseline };
  } finally {
    clearInterval(sampler);
  }
}

async function timed(work) {
  const started = process.hrtime.bigint();
  const result = await work();
  return { ms: Number(process.hrtime.bigint() - started) / 1e6, result };
}

async function main() {
  const loadBefore = os.loadavg().map((l) => l.toFixed(1)).join(' / ');
  const database = `outpost_bench_transfer_${process.pid}`;
  await sql(ADMIN_URL, (client) => client.query(`CREATE DATABASE "${database}"`));
  const scratch = realpathSync(mkdtempSync(join(tmpdir(), 'outpost-bench-transfer-')));
  const directory = join(scratch, 'project');
  mkdirSync(directory);
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const server = spawnOutpost({
    port,
    database,
    dataDir: join(scratch, 'data'),
    directory,
    env: {},
  });
  const headers = { authorization: AUTH, 'content-type': 'application/json' };
  try {
    await waitFor(`${base}/health`);
    const messages = transcript(MESSAGES);

    // 1. Import (each run a new session id), the server's RSS sampled every 5 ms.
    const post = async (body) => {
      const res = await fetch(`${base}/api/experimental/session/import`, { method: 'POST', headers, body });
      if (res.status !== 200) throw new Error(`import answered ${res.status}: ${(await res.text()).slice(0, 200)}`);
      return res.json();
    };
    const imports = [];
    const importGrowth = [];
    let sessionID;
    for (let run = 0; run < RUNS; run++) {
      sessionID = `ses_${(0xfff0000000000000n - BigInt(run)).toString(16)}benchIMPORT0`;
      const info = {
        id: sessionID,
        cost: 1,
        tokens: { input: 1, output: 1, reasoning: 0, cache: { read: 0, write: 0 } },
        time: { created: Date.UTC(2026, 0, 1), updated: Date.UTC(2026, 0, 2) },
        title: 'bench',
        location: { directory },
      };
      const body = JSON.stringify({ info, messages });
      const { ms, growth } = await sampledRss(server.pid, () => post(body));
      imports.push(ms);
      importGrowth.push(growth);
      if (run === 0) console.log(`import body: ${(body.length / 1e6).toFixed(1)} MB`);
    }
    console.log(
      `import ${MESSAGES} messages: median ${median(imports).toFixed(0)} ms, RSS growth median ${(median(importGrowth) / 1e6).toFixed(1)} MB`,
    );

    // 2. Export, with the server's RSS sampled every 5 ms while it runs.
    let lastExport;
    const exportRun = async (query) => {
      const { ms, result, growth } = await sampledRss(server.pid, async () => {
        const res = await fetch(`${base}/api/experimental/session/${sessionID}/export${query}`, { headers });
        const text = await res.text();
        if (res.status !== 200) throw new Error(`export answered ${res.status}: ${text.slice(0, 200)}`);
        return text;
      });
      const parsed = JSON.parse(result);
      if (parsed.data.messages.length !== MESSAGES) throw new Error('export lost messages');
      if (query === '') lastExport = parsed.data;
      return { ms, bytes: Buffer.byteLength(result), growth };
    };
    const exports = [];
    for (let run = 0; run < RUNS; run++) exports.push(await exportRun(''));
    const sanitized = [];
    for (let run = 0; run < RUNS; run++) sanitized.push(await exportRun('?sanitize=true'));
    const jsonBytes = exports[0].bytes;
    // The round trip: what export gave, imported again under a new id, gives the same messages back.
    const again = `ses_${(0xffe0000000000000n).toString(16)}benchAGAIN00`;
    const { info: exportedInfo, messages: exportedMessages } = lastExport;
    const roundTrip = await timed(() => post(JSON.stringify({ info: { ...exportedInfo, id: again }, messages: exportedMessages })));
    const back = await (await fetch(`${base}/api/experimental/session/${again}/export`, { headers })).json();
    if (JSON.stringify(back.data.messages) !== JSON.stringify(exportedMessages)) throw new Error('round trip changed the messages');
    console.log(`round trip of ${MESSAGES} messages: import of the export in ${roundTrip.ms.toFixed(0)} ms, same messages back`);
    const maxGrowth = Math.max(...exports.map((e) => e.growth), ...sanitized.map((e) => e.growth));
    console.log(
      `export: median ${median(exports.map((e) => e.ms)).toFixed(0)} ms, sanitized ${median(sanitized.map((e) => e.ms)).toFixed(0)} ms, JSON ${(jsonBytes / 1e6).toFixed(1)} MB, max RSS growth ${(maxGrowth / 1e6).toFixed(1)} MB`,
    );

    // 3. Stats over a year of 1,000,000 messages.
    const end = Date.UTC(2026, 6, 1);
    const seedSeconds = await seedStats(dbUrl(database), directory, end);
    console.log(`seeded ${STATS_MESSAGES} messages in ${STATS_SESSIONS} sessions in ${seedSeconds.toFixed(1)} s`);
    const stats = {};
    const statsRuns = Math.max(3, Math.min(RUNS, 5));
    const windows = {
      year: `from=${end - YEAR_MS}&to=${end}`,
      month: `from=${end - 31 * 24 * 3600 * 1000}&to=${end}`,
    };
    for (const [window, range] of Object.entries(windows)) {
      for (const tools of ['none', 'summary', 'detail']) {
        const url = `${base}/api/experimental/session/stats?${range}&timezone=America/Los_Angeles&tools=${tools}`;
        const runs = [];
        let sample;
        for (let run = 0; run <= statsRuns; run++) {
          const { ms, result } = await timed(async () => {
            const res = await fetch(url, { headers });
            if (res.status !== 200) throw new Error(`stats answered ${res.status}`);
            return res.json();
          });
          if (run > 0) runs.push(ms); // the first run warms the caches
          sample = result.data;
        }
        stats[`${window}/${tools}`] = { medianMs: median(runs), runs, steps: sample.steps, activeDays: sample.activeDays, toolCalls: sample.tools.totals?.calls };
        console.log(`stats ${window} tools=${tools}: median ${median(runs).toFixed(0)} ms (steps ${sample.steps})`);
      }
    }

    const targets = [
      { name: `import of ${MESSAGES} messages ≤ 5 s`, value: `${median(imports).toFixed(0)} ms`, ok: median(imports) <= 5000 },
      {
        name: `import RSS growth ≤ 150 MB over idle at ${MESSAGES} messages`,
        value: `${(median(importGrowth) / 1e6).toFixed(1)} MB median, ${(Math.max(...importGrowth) / 1e6).toFixed(1)} MB at most`,
        ok: median(importGrowth) <= 150e6,
      },
      { name: 'the export of an import imports again with the same messages', value: `${roundTrip.ms.toFixed(0)} ms`, ok: true },
      { name: 'export ≤ 1 s', value: `${median(exports.map((e) => e.ms)).toFixed(0)} ms`, ok: median(exports.map((e) => e.ms)) <= 1000 },
      { name: 'stats (summary, a year) ≤ 1 s', value: `${stats['year/summary'].medianMs.toFixed(0)} ms`, ok: stats['year/summary'].medianMs <= 1000 },
      {
        name: 'export RSS growth < 2× the JSON size',
        value: `${(maxGrowth / jsonBytes).toFixed(2)}× (${(maxGrowth / 1e6).toFixed(1)} MB for ${(jsonBytes / 1e6).toFixed(1)} MB)`,
        ok: maxGrowth < 2 * jsonBytes,
      },
    ];
    const report = {
      date: new Date().toISOString(),
      machine: `${os.cpus().length} CPUs, node ${process.version}, load average ${loadBefore} before and ${os.loadavg().map((l) => l.toFixed(1)).join(' / ')} after`,
      import: { messages: MESSAGES, medianMs: median(imports), runs: imports, rssGrowthBytes: importGrowth, roundTripMs: roundTrip.ms },
      export: { jsonBytes, medianMs: median(exports.map((e) => e.ms)), sanitizedMedianMs: median(sanitized.map((e) => e.ms)), maxRssGrowthBytes: maxGrowth, runs: exports, sanitizedRuns: sanitized },
      stats: { messages: STATS_MESSAGES, sessions: STATS_SESSIONS, seedSeconds, timezone: 'America/Los_Angeles', results: stats },
      targets,
    };
    const md = [
      '# Transfer and stats benchmark',
      '',
      `Run ${report.date} on ${report.machine}. \`node dist/main.js\` (LOG_LEVEL=warn) on PostgreSQL over loopback; medians of ${RUNS} runs (stats: ${statsRuns} after one warm-up).`,
      '',
      '| operation | median ms |',
      '|---|---:|',
      `| import ${MESSAGES.toLocaleString('en')} messages (${(JSON.stringify(messages).length / 1e6).toFixed(1)} MB body) | ${median(imports).toFixed(0)} |`,
      `| export (${(jsonBytes / 1e6).toFixed(1)} MB JSON) | ${report.export.medianMs.toFixed(0)} |`,
      `| export, sanitize=true | ${report.export.sanitizedMedianMs.toFixed(0)} |`,
      ...Object.entries(stats).map(([name, s]) => `| stats ${name} (${STATS_MESSAGES.toLocaleString('en')} messages, ${STATS_SESSIONS.toLocaleString('en')} sessions; steps ${s.steps}) | ${s.medianMs.toFixed(0)} |`),
      '',
      `Server RSS growth during import (peak minus the RSS before the request, sampled every 5 ms): median ${(median(importGrowth) / 1e6).toFixed(1)} MB, at most ${(Math.max(...importGrowth) / 1e6).toFixed(1)} MB.`,
      '',
      `Server RSS growth during export (peak minus the RSS before the request, sampled every 5 ms): at most ${(maxGrowth / 1e6).toFixed(1)} MB for a ${(jsonBytes / 1e6).toFixed(1)} MB transcript.`,
      '',
      '## Targets',
      '',
      ...targets.map((t) => `- ${t.ok ? 'met' : 'MISSED'}: ${t.name} (${t.value})`),
      '',
    ].join('\n');
    mkdirSync(join(ROOT, 'bench', 'results'), { recursive: true });
    writeFileSync(join(ROOT, 'bench', 'results', 'transfer.json'), `${JSON.stringify(report, null, 2)}\n`);
    writeFileSync(join(ROOT, 'bench', 'results', 'transfer.md'), md);
    console.log(md);
  } finally {
    server.kill('SIGTERM');
    await new Promise((resolve) => server.once('exit', resolve));
    await sql(ADMIN_URL, (client) => client.query(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`));
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
