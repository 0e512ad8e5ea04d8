import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import OpenAI from 'openai';
import { Person, serviceAccountKey, signup } from '../../helpers/console';
import { ScriptedModelServer } from '../../helpers/scripted-model-server';
import { createTestApp, TestApp } from '../../helpers/test-app';
import { query } from '../../helpers/test-database';

/** A provider on loopback that answers every call the same way, counting calls and the keys they carried. */
class FixedUpstream {
  calls = 0;
  keys: string[] = [];
  private server!: Server;
  url = '';

  constructor(private readonly answer: (req: IncomingMessage, res: ServerResponse) => void) {}

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      this.calls++;
      this.keys.push(String(req.headers.authorization));
      req.resume();
      req.on('end', () => this.answer(req, res));
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/v1`;
    return this;
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

const json =
  (status: number, body: object, headers: Record<string, string> = {}) =>
  (_req: IncomingMessage, res: ServerResponse) => {
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(JSON.stringify(body));
  };
const ANSWER = {
  id: 'x',
  object: 'chat.completion',
  created: 0,
  model: 'm',
  choices: [{ index: 0, message: { role: 'assistant', content: 'served' }, finish_reason: 'stop' }],
  usage: { prompt_tokens: 10, completion_tokens: 10, total_tokens: 20 },
};

describe('gateway routes: deployments balanced by weight, failures skipped and cooled, fallbacks, rotating keys', () => {
  let t: TestApp;
  let owner: Person;
  let key: string;
  let client: OpenAI;
  const good = new FixedUpstream(json(200, ANSWER));
  const other = new FixedUpstream(json(200, ANSWER));
  const failing = new FixedUpstream(json(500, { error: { message: 'boom' } }));
  const silent = new FixedUpstream(() => undefined); // never answers
  const limited = new FixedUpstream(json(429, { error: { message: 'slow down' } }, { 'retry-after': '1' }));
  const tooLong = new FixedUpstream(
    json(400, {
      error: {
        message: "This model's maximum context length is 8192 tokens",
        code: 'context_length_exceeded',
      },
    }),
  );
  const keyed = new FixedUpstream((req, res) =>
    req.headers.authorization === 'Bearer key-one'
      ? json(429, { error: { message: 'key one is limited' } })(req, res)
      : json(200, ANSWER)(req, res),
  );
  let scripted: ScriptedModelServer;

  beforeAll(async () => {
    await Promise.all(
      [good, other, failing, silent, limited, tooLong, keyed].map((upstream) => upstream.start()),
    );
    scripted = await ScriptedModelServer.start();
    const provider = (name: string, url: string, price: number, keyEnv = 'KEY') =>
      `  ${name}:\n    base_url: ${url}\n    schema: openai-chat\n    api_key_env: ${keyEnv}\n    models:\n      m: { prices: { input: ${price}, output: ${price} } }\n`;
    const file = join(mkdtempSync(join(tmpdir(), 'outpost-routes-')), 'gateway.yaml');
    writeFileSync(
      file,
      'providers:\n' +
        provider('good', good.url, 1) +
        provider('other', other.url, 1) +
        provider('failing', failing.url, 1) +
        provider('silent', silent.url, 1) +
        provider('limited', limited.url, 1) +
        provider('toolong', tooLong.url, 1) +
        provider('keyed', keyed.url, 1, '[KEY_ONE, KEY_TWO]') +
        provider('dear', scripted.baseURL, 5) +
        `routes:
  skip-failing:
    deployments: [failing/m, good/m]
  timed-out:
    deployments: [silent/m]
    fallbacks: [good/m]
    timeout_seconds: 1
  rate-limited:
    deployments: [limited/m]
    fallbacks: [good/m]
  context:
    deployments: [toolong/m]
    fallbacks: [dear/m]
  weighted:
    deployments: [{ model: good/m, weight: 1 }, { model: other/m, weight: 3 }]
  nothing-left:
    deployments: [failing/m]
`,
    );
    t = await createTestApp({
      env: { OUTPOST_GATEWAY_CONFIG: file, KEY: 'sk-route', KEY_ONE: 'key-one', KEY_TWO: 'key-two' },
    });
    owner = await signup(t);
    key = (await serviceAccountKey(owner, owner.org, 'inference')).key;
    client = new OpenAI({ baseURL: `${t.url}/inference/openai/v1`, apiKey: key, maxRetries: 0 });
  });
  afterAll(async () => {
    await t?.close();
    await Promise.all(
      [good, other, failing, silent, limited, tooLong, keyed].map((upstream) => upstream.close()),
    );
    await scripted?.close();
  });

  const call = (model: string) =>
    client.chat.completions.create({ model, messages: [{ role: 'user', content: 'hi' }] }).withResponse();

  it('a deployment answering 5xx is skipped and cooled down: every call is served, the failing one is tried once (by each node)', async () => {
    const before = failing.calls;
    for (let i = 0; i < 10; i++) {
      const { data, response } = await call('skip-failing');
      expect(data.choices[0].message.content).toBe('served');
      expect(response.headers.get('x-outpost-served-by')).toBe('good/m');
    }
    // Each node learns from its own calls (OUTPOST_TEST_FLEET runs several behind nginx).
    expect(failing.calls - before).toBeLessThanOrEqual(t.nodes.length);
  });

  it('a deployment that does not answer within timeout_seconds is left for the fallback', async () => {
    const started = Date.now();
    const { data, response } = await call('timed-out');
    expect(data.choices[0].message.content).toBe('served');
    expect(response.headers.get('x-outpost-served-by')).toBe('good/m');
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(silent.calls).toBeGreaterThanOrEqual(1);
  });

  it('a deployment answering 429 (after its retries) gives way to the fallback', async () => {
    const { response } = await call('rate-limited');
    expect(response.headers.get('x-outpost-served-by')).toBe('good/m');
    expect(limited.calls).toBeGreaterThanOrEqual(1);
  });

  it('a context-window error goes to the fallbacks, and the call is metered at the model that served', async () => {
    scripted.script({ text: 'longer context', usage: { input: 1000, output: 100 } });
    const sa = await serviceAccountKey(owner, owner.org, 'inference');
    const own = new OpenAI({ baseURL: `${t.url}/inference/openai/v1`, apiKey: sa.key, maxRetries: 0 });
    const { data, response } = await own.chat.completions
      .create({ model: 'context', messages: [{ role: 'user', content: 'a long story' }] })
      .withResponse();
    expect(data.choices[0].message.content).toBe('longer context');
    expect(response.headers.get('x-outpost-served-by')).toBe('dear/m');
    expect(scripted.requests.at(-1)!.body.model).toBe('m');
    // dear/m costs $5 per million tokens: 1,100 tokens = 550,000 micro-cents.
    let rows: Array<{ model: string; cost: string }> = [];
    for (let i = 0; i < 50 && rows.length === 0; i++) {
      rows = await query(
        t.databaseUrl!,
        'SELECT model, cost_micro_cents::text AS cost FROM usage WHERE member_id = $1',
        [sa.sa],
      );
      if (rows.length === 0) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(rows).toEqual([{ model: 'dear/m', cost: '550000' }]);
  });

  it('deployments share the traffic by weight', async () => {
    const [goodBefore, otherBefore] = [good.calls, other.calls];
    for (let i = 0; i < 200; i++) await call('weighted');
    const toGood = good.calls - goodBefore;
    const toOther = other.calls - otherBefore;
    expect(toGood + toOther).toBe(200);
    // Weights 1 : 3: about 50 of the 200 go to `good` (a standard deviation of 6). The bounds are four deviations
    // away, so a fair draw fails about once in 25,000 runs (2.9 deviations failed once in a fleet run); an even split
    // (100) or the weights swapped (150) fail every time.
    expect(toGood).toBeGreaterThanOrEqual(25);
    expect(toGood).toBeLessThanOrEqual(75);
  });

  it("a provider's keys rotate; a key it rate-limits gives way to the next at once", async () => {
    keyed.keys = [];
    for (let i = 0; i < 4; i++) {
      const { data } = await call('keyed/m');
      expect(data.choices[0].message.content).toBe('served');
    }
    expect(keyed.keys).toContain('Bearer key-one');
    expect(keyed.keys.filter((k) => k === 'Bearer key-two')).toHaveLength(4);
  });

  it('when every deployment failed and there is no fallback, the caller gets 502; routes are listed as models', async () => {
    const error = await call('nothing-left').catch((e: unknown) => e);
    expect((error as InstanceType<typeof OpenAI.APIError>).status).toBe(502);
    const models = await client.models.list();
    expect(models.data.map((model) => model.id)).toEqual(
      expect.arrayContaining(['skip-failing', 'weighted', 'keyed/m']),
    );
  });
});
