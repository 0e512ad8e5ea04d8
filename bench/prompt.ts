/*
 * `npm run bench:prompt`: the server's own time per agent-loop step, without the model's. One real server process
 * (`node dist/main.js`) drives sessions against a scripted OpenAI-compatible model on loopback that answers at once:
 * `BENCH_STEPS - 1` turns that each call the `read` tool, then a text answer. The model server stamps when each
 * response ended and when the session's next request arrived; the gap between them is what the server spent on the
 * step boundary (running the tool, recording its result, taking the session, its agent and providers, extending the
 * history, building the next request). The statement that closes the step (usage and cost in one transaction) and
 * opens the next goes out right after the next request, so it overlaps the model's turn; when it has not landed by
 * the time the next step closes, the wait counts in that boundary. The wall time per step of the concurrent rounds
 * counts all of it. First one session alone, then `BENCH_SESSIONS` (20) sessions at once. Needs PostgreSQL
 * (`BENCH_DATABASE_ADMIN_URL`, default the local server). Results: bench/results/prompt.{json,md}.
 */
import { ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { createServer as createHttpServer, get, IncomingMessage, Server, ServerResponse } from 'node:http';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { admin, databaseUrl, freePort, SERVER_NODE_ARGS, waitForHealth } from './bench-server';

const ROOT = join(__dirname, '..', '..');
const STEPS = Number(process.env.BENCH_STEPS ?? 30);
const SESSIONS = Number(process.env.BENCH_SESSIONS ?? 20);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
/**
 * Single-session rounds before each concurrent round: a single round lasts well under a second, so a burst of load
 * from elsewhere can spoil a whole one; more of them make the median steadier.
 */
const SINGLE_PER_ROUND = Number(process.env.BENCH_SINGLE_PER_ROUND ?? 3);
const TARGET_MS = 5;
const PASSWORD = 'bench-password';
const AUTH = `Basic ${Buffer.from(`opencode:${PASSWORD}`).toString('base64')}`;

/** Per session (named in its prompt), when each model request arrived and when its response ended (ms). */
type Timeline = Map<string, Array<{ arrived: number; ended: number }>>;

/** A model that answers at once: `read` tool calls until the history holds STEPS - 1 results, then text. */
function startModel(timeline: Timeline): Promise<{ server: Server; url: string }> {
  const server = createHttpServer((req: IncomingMessage, res: ServerResponse) => {
    const arrived = performance.now();
    let raw = '';
    req.on('data', (chunk) => (raw += chunk));
    req.on('end', () => {
      const body = JSON.parse(raw) as { messages: Array<{ role: string; content: unknown }> };
      const first = body.messages.find((m) => m.role === 'user');
      const key = String(typeof first?.content === 'string' ? first.content : JSON.stringify(first?.content));
      const results = body.messages.filter((m) => m.role === 'tool').length;
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const chunk = (delta: unknown, finish: string | null, usage?: unknown) =>
        res.write(
          `data: ${JSON.stringify({
            id: 'bench',
            object: 'chat.completion.chunk',
            created: 0,
            model: 'bench',
            choices: delta ? [{ index: 0, delta, finish_reason: finish }] : [],
            ...(usage ? { usage } : {}),
          })}\n\n`,
        );
      chunk({ role: 'assistant', content: '' }, null);
      if (results < STEPS - 1) {
        const args = JSON.stringify({ filePath: 'notes.txt' });
        chunk(
          {
            tool_calls: [
              {
                index: 0,
                id: `call_${results}`,
                type: 'function',
                function: { name: 'read', arguments: args },
              },
            ],
          },
          null,
        );
        chunk({}, 'tool_calls');
      } else {
        chunk({ content: 'All read.' }, null);
        chunk({}, 'stop');
      }
      chunk(null, null, { prompt_tokens: 100, completion_tokens: 10, total_tokens: 110 });
      res.end('data: [DONE]\n\n', () => {
        const list = timeline.get(key) ?? [];
        list.push({ arrived, ended: performance.now() });
        timeline.set(key, list);
      });
    });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      resolve({ server, url: `http://127.0.0.1:${port}/v1` });
    }),
  );
}

async function call<T>(url: string, method: string, body?: unknown): Promise<{ status: number; body: T }> {
  const res = await fetch(url, {
    method,
    headers: { authorization: AUTH, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : undefined) as T };
}

/** Resolves `done` once every session of `ids` published `session.idle` on the event stream. */
function idleWatcher(base: string, ids: Set<string>): { ready: Promise<void>; done: Promise<void> } {
  let onReady!: () => void;
  const ready = new Promise<void>((resolve) => (onReady = resolve));
  const done = new Promise<void>((resolve, reject) => {
    const request = get(`${base}/api/event`, { headers: { authorization: AUTH } }, (response) => {
      let buffer = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        buffer += chunk;
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const data = buffer
            .slice(0, end)
            .split('\n')
            .filter((line) => line.startsWith('data: '))
            .map((line) => line.slice(6))
            .join('');
          buffer = buffer.slice(end + 2);
          if (!data) continue;
          const event = JSON.parse(data) as { type: string; data: { sessionID?: string } };
          if (event.type === 'server.connected') onReady();
          if (event.type === 'session.idle') ids.delete(event.data.sessionID ?? '');
          if (ids.size === 0) {
            request.destroy();
            resolve();
          }
        }
      });
    });
    request.on('error', (error) => (ids.size === 0 ? resolve() : reject(error)));
  });
  return { ready, done };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

interface Round {
  sessions: number;
  steps: number;
  medianMs: number;
  p90Ms: number;
  errors: string[];
  wallMs: number;
  /** Wall time over all steps of all sessions: the server's cost of a step when sessions share it. */
  amortizedMs: number;
}

/** Runs `count` sessions at once to the end and returns the server's per-step gaps. */
async function round(base: string, project: string, count: number, label: string): Promise<Round> {
  const timeline: Timeline = new Map();
  const model = await startModel(timeline);
  writeFileSync(
    join(project, 'outpost.json'),
    JSON.stringify({
      provider: {
        bench: {
          package: 'aisdk:@ai-sdk/openai-compatible',
          settings: { baseURL: model.url, apiKey: 'bench' },
          models: { fast: { cost: { input: 1, output: 2 } } },
        },
      },
    }),
  );
  await call(`${base}/api/location/reload`, 'POST');
  const errors: string[] = [];
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const created = await call<{ data: { id: string } }>(`${base}/api/session`, 'POST', {
      location: { directory: project },
      model: { providerID: 'bench', id: 'fast' },
      // A session with a title gets no title call: the model server sees only the agent loop's steps.
      title: `${label} session ${i}`,
    });
    ids.push(created.body.data.id);
  }
  const idle = idleWatcher(base, new Set(ids));
  await idle.ready;
  const started = performance.now();
  await Promise.all(
    ids.map(async (id, i) => {
      const res = await call(`${base}/api/session/${id}/prompt`, 'POST', { text: `${label} session ${i}` });
      if (res.status !== 200) errors.push(`prompt ${id}: ${res.status}`);
    }),
  );
  await idle.done;
  const wallMs = performance.now() - started;
  for (const id of ids) {
    const info = await call<{ data: { outcome?: string } }>(`${base}/api/session/${id}`, 'GET');
    if (info.body.data.outcome !== 'succeeded') errors.push(`${id}: outcome ${info.body.data.outcome}`);
  }
  const gaps: number[] = [];
  for (const requests of timeline.values()) {
    if (requests.length !== STEPS) errors.push(`a session made ${requests.length} of ${STEPS} requests`);
    for (let k = 1; k < requests.length; k++) gaps.push(requests[k].arrived - requests[k - 1].ended);
  }
  await new Promise<void>((resolve) => model.server.close(() => resolve()));
  return {
    sessions: count,
    steps: gaps.length,
    medianMs: median(gaps),
    p90Ms: percentile(gaps, 90),
    errors,
    wallMs,
    amortizedMs: wallMs / (count * STEPS),
  };
}

/** The server under test: `node dist/main.js` on `port`, its own database and data folder, the instance surface. */
function startServer(name: string, port: number, dataDir: string): ChildProcess {
  // BENCH_NODE_ARGS: extra flags for the server process, e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`.
  const nodeArgs = process.env.BENCH_NODE_ARGS?.split(' ').filter(Boolean) ?? [];
  return spawn(process.execPath, [...SERVER_NODE_ARGS, ...nodeArgs, join(ROOT, 'dist', 'main.js')], {
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl(name),
      OUTPOST_PASSWORD: PASSWORD,
      OUTPOST_DATA_DIR: dataDir,
      OUTPOST_CONFIG_DIR: join(dataDir, 'config'),
      OUTPOST_SURFACES: 'instance',
      // 20 sessions stream their deltas to this one client.
      OUTPOST_EVENT_MAX_BUFFERED_BYTES: String(256 * 1024 * 1024),
      HOST: '127.0.0.1',
      PORT: String(port),
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
}

/** The figures of the single and the concurrent rounds, and whether they meet the targets. */
function summary(single: Round[], concurrent: Round[]) {
  const singleMs = median(single.map((r) => r.medianMs));
  const concurrentMs = median(concurrent.map((r) => r.medianMs));
  const singleAmortizedMs = median(single.map((r) => r.amortizedMs));
  const concurrentAmortizedMs = median(concurrent.map((r) => r.amortizedMs));
  const errors = [...single, ...concurrent].flatMap((r) => r.errors);
  const ratio = concurrentAmortizedMs / singleAmortizedMs;
  const latencyRatio = concurrentMs / singleMs;
  return {
    date: new Date().toISOString(),
    node: process.version,
    loadAverage: loadavg(),
    stepsPerSession: STEPS,
    rounds: ROUNDS,
    singleRoundsPerRound: SINGLE_PER_ROUND,
    single: { medianOverheadMs: singleMs, amortizedMs: singleAmortizedMs, rounds: single },
    concurrent: {
      sessions: SESSIONS,
      medianOverheadMs: concurrentMs,
      amortizedMs: concurrentAmortizedMs,
      rounds: concurrent,
    },
    ratio,
    latencyRatio,
    errors,
    meetsTarget: singleMs <= TARGET_MS && ratio <= 2 && errors.length === 0,
  };
}

/** bench/results/prompt.md: the rounds in a table, then the figures against their targets. */
function markdown(results: ReturnType<typeof summary>): string {
  const { single, concurrent, ratio, latencyRatio, errors } = results;
  const singleMs = single.medianOverheadMs;
  const concurrentMs = concurrent.medianOverheadMs;
  const singleAmortizedMs = single.amortizedMs;
  const concurrentAmortizedMs = concurrent.amortizedMs;
  const fmt = (n: number) => n.toFixed(2);
  return `# bench:prompt

${results.date}, Node ${results.node}, load average ${loadavg()
    .map((n) => n.toFixed(2))
    .join(' ')}, one server process, PostgreSQL on loopback.
Each session runs ${STEPS} steps (${STEPS - 1} \`read\` tool calls, then an answer) against a scripted model that
answers at once; the figure is the server's time between the end of one model response and the next request of the
same session (median over all step boundaries of a round; median of ${single.rounds.length} single-session rounds and of
${ROUNDS} rounds of ${SESSIONS} sessions, interleaved).

| run | sessions | step boundaries | boundary median (ms) | boundary p90 (ms) | wall (ms) | wall per step (ms) |
|---|---|---|---|---|---|---|
${[...single.rounds, ...concurrent.rounds]
  .map(
    (r) =>
      `| ${r.sessions === 1 ? 'single' : 'concurrent'} | ${r.sessions} | ${r.steps} | ${fmt(r.medianMs)} | ${fmt(r.p90Ms)} | ${r.wallMs.toFixed(0)} | ${fmt(r.amortizedMs)} |`,
  )
  .join('\n')}

Single session: **${fmt(singleMs)} ms** per step boundary (target ≤ ${TARGET_MS} ms: ${singleMs <= TARGET_MS ? 'met' : 'NOT met'}).
${SESSIONS} sessions at once: the server spends **${fmt(concurrentAmortizedMs)} ms** of wall time per step against
${fmt(singleAmortizedMs)} ms for one session alone, ${fmt(ratio)}× (target ≤ 2×: ${ratio <= 2 ? 'met' : 'NOT met'}).
Each session's own boundary waits its turn for the CPU: ${fmt(concurrentMs)} ms median, ${fmt(latencyRatio)}× the
single figure.
Errors: ${errors.length === 0 ? 'none' : errors.join('; ')}.
`;
}

async function main(): Promise<void> {
  const name = `bench_prompt_${process.pid}`;
  await admin(`CREATE DATABASE "${name}"`);
  let server: ChildProcess | undefined;
  try {
    const port = await freePort();
    const dataDir = mkdtempSync(join(tmpdir(), 'outpost-bench-'));
    const project = mkdtempSync(join(tmpdir(), 'outpost-bench-project-'));
    writeFileSync(join(project, 'notes.txt'), 'A short file the agent reads at every step.\n'.repeat(20));
    server = startServer(name, port, dataDir);
    const base = `http://127.0.0.1:${port}`;
    await waitForHealth(base);

    await round(base, project, 2, 'warm-up');
    const single: Round[] = [];
    const concurrent: Round[] = [];
    for (let r = 0; r < ROUNDS; r++) {
      for (let k = 0; k < SINGLE_PER_ROUND; k++) {
        single.push(await round(base, project, 1, `single ${r}.${k}`));
      }
      concurrent.push(await round(base, project, SESSIONS, `concurrent ${r}`));
    }
    const results = summary(single, concurrent);
    mkdirSync(join(ROOT, 'bench', 'results'), { recursive: true });
    writeFileSync(join(ROOT, 'bench', 'results', 'prompt.json'), JSON.stringify(results, null, 2) + '\n');
    const md = markdown(results);
    writeFileSync(join(ROOT, 'bench', 'results', 'prompt.md'), md);
    process.stdout.write(md);
  } finally {
    server?.kill('SIGTERM');
    await new Promise((resolve) => setTimeout(resolve, 500));
    await admin(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  }
}

main().catch((error) => {
  process.stderr.write(`${String(error)}\n`);
  process.exit(1);
});
