import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fuzzRequests, FuzzRequest } from '../../helpers/api-fuzzer';
import { freePort, ServerProcess, startServer, waitForHealth } from '../../helpers/processes';
import { createTestDatabase } from '../../helpers/test-database';
import { inferenceAccount } from '../../helpers/remote-console';
import { ScriptedModelServer } from '../../helpers/scripted-model-server';

jest.setTimeout(900_000);

/** `OUTPOST_FUZZ_REQUESTS` raises the count (`npm run bench:fuzz` sends 50,000); the seed makes a run repeatable. */
const COUNT = Number(process.env.OUTPOST_FUZZ_REQUESTS ?? 5_000);
const SEED = Number(process.env.OUTPOST_FUZZ_SEED ?? 20261124);
const PASSWORD = 'fuzz-server-password';

describe(`a seeded fuzzer from both API documents (${COUNT} requests, seed ${SEED}) against a real process`, () => {
  let server: ServerProcess;
  let database: { url: string; drop: () => Promise<void> };
  let cookie = '';
  let key = '';
  let upstream: ScriptedModelServer;

  beforeAll(async () => {
    database = await createTestDatabase();
    // The gateway's routes are fuzzed too: model `small` answers from a scripted provider on loopback.
    upstream = await ScriptedModelServer.start();
    upstream.fallback = { text: 'ok', usage: { input: 1, output: 1 } };
    const dataDir = mkdtempSync(join(tmpdir(), 'outpost-fuzz-'));
    writeFileSync(
      join(dataDir, 'gateway.yaml'),
      `providers:\n  up:\n    base_url: ${upstream.baseURL}\n    schema: openai-chat\n    api_key_env: UP_KEY\n    models:\n      small: { prices: { input: 1, output: 2 } }\n`,
    );
    server = startServer({
      PORT: String(await freePort()),
      DATABASE_URL: database.url,
      OUTPOST_PASSWORD: PASSWORD,
      OUTPOST_DATA_DIR: dataDir,
      OUTPOST_GATEWAY_CONFIG: join(dataDir, 'gateway.yaml'),
      UP_KEY: 'sk-fuzz-upstream',
      OUTPOST_NPM_REGISTRY: 'http://127.0.0.1:9', // nothing listens: plugin installs fail fast
      OUTPOST_AUTH_MAX_FAILURES: '1000000',
      OUTPOST_SIGNUPS_PER_HOUR: '1000000',
      OUTPOST_DEVICE_CODES_PER_MINUTE: '1000000',
      LOG_LEVEL: 'error',
    });
    await waitForHealth(server);
    const signup = await fetch(`${server.url}/console/api/auth/signup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'fuzz@example.com', password: 'correct horse battery' }),
    });
    cookie = String(signup.headers.get('set-cookie')).split(';')[0];
    key = (await inferenceAccount(server.url, 'fuzz-keys@example.com')).key;
  });

  afterAll(async () => {
    server.child.kill('SIGTERM');
    await server.exited;
    await upstream.close();
    await database.drop();
  });

  it('answers every request below 500 (but a tagged 501 refusal), and every JSON 4xx with a tagged body', async () => {
    const documents = (await Promise.all(
      ['instance', 'console'].map(async (name) => (await fetch(`${server.url}/docs/${name}.json`)).json()),
    )) as Parameters<typeof fuzzRequests>[0];
    // Signing out would only end the fuzzer's own console session: drawn and left out, then topped up to COUNT.
    const requests = fuzzRequests(documents, Math.ceil(COUNT * 1.05), SEED)
      .filter((r) => !/logout/.test(r.path))
      .slice(0, COUNT);
    const failures: Array<{ request: FuzzRequest; status: number; body: string }> = [];
    const statuses = new Map<number, number>();
    const credentials = {
      none: {},
      instance: { authorization: `Basic ${Buffer.from(`opencode:${PASSWORD}`).toString('base64')}` },
      console: { cookie, origin: server.url },
      inference: { authorization: `Bearer ${key}` },
    };
    let next = 0;
    const worker = async () => {
      while (next < requests.length) {
        const request = requests[next++];
        const res = await fetch(`${server.url}${request.path}`, {
          method: request.method,
          headers: { ...request.headers, ...credentials[request.credentials] },
          body: request.body,
          redirect: 'manual',
          signal: AbortSignal.timeout(15_000),
        }).catch((error: Error) => ({
          status: 0,
          headers: new Headers(),
          body: null,
          text: async () => error.message,
        }));
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
        if ((res.headers.get('content-type') ?? '').startsWith('text/event-stream')) {
          await res.body?.cancel(); // an event stream answered: it never ends by itself
          continue;
        }
        const text = await res.text().catch((error: Error) => `(body not read: ${error.message})`);
        const json = (res.headers.get('content-type') ?? '').includes('application/json');
        let tagged = true;
        if (res.status >= 400 && json) {
          const body = JSON.parse(text) as Record<string, unknown>;
          // Tagged: `_tag` (instance, console), OAuth's `error` (device endpoints), or the OpenAI/Anthropic error
          // object with our tag as its `code` (inference).
          const inner = body.error as Record<string, unknown> | undefined;
          tagged =
            typeof body._tag === 'string' ||
            typeof body.error === 'string' ||
            typeof inner?.code === 'string';
        }
        const html = (res.headers.get('content-type') ?? '').includes('text/html');
        // A documented refusal of an operation Outpost does not carry out (pty.create) is a 501 on purpose.
        const refusal = res.status === 501 && json && text.includes('"_tag":"NotSupportedError"');
        if (
          res.status === 0 ||
          (res.status >= 500 && !refusal) ||
          !tagged ||
          (res.status >= 400 && !json && !html)
        ) {
          failures.push({
            request: { ...request, body: request.body?.slice(0, 300) },
            status: res.status,
            body: text.slice(0, 300),
          });
        }
      }
    };
    await Promise.all(Array.from({ length: 8 }, worker));
    const summary = {
      date: new Date().toISOString(),
      requests: requests.length,
      gateway_requests: requests.filter((r) => r.path.startsWith('/inference/')).length,
      lane_path_parameter_requests: requests.filter(
        (r) => r.credentials === 'inference' && r.path.startsWith('/inference/custom/'),
      ).length,
      lone_surrogates: requests.filter((r) => /\\ud[89a-f]|%ED%[AB]/i.test(`${r.path}${r.body ?? ''}`))
        .length,
      seed: SEED,
      failures: failures.length,
      statuses: Object.fromEntries([...statuses].sort()),
    };
    process.stdout.write(`fuzz: ${JSON.stringify(summary)}\n`);
    if (process.env.OUTPOST_FUZZ_RESULTS)
      writeFileSync(process.env.OUTPOST_FUZZ_RESULTS, JSON.stringify(summary, null, 2) + '\n');
    expect(failures.slice(0, 5)).toEqual([]);
    expect([...statuses.values()].reduce((a, b) => a + b, 0)).toBe(requests.length);
    expect(requests.length).toBe(COUNT);
  });
});
