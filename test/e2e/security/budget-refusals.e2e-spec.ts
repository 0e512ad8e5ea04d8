import OpenAI from 'openai';
import { bearer, Person, serviceAccountKey, signup } from '../../helpers/console';
import { upstreamCatalogue } from '../../helpers/gateway-catalogue';
import { ScriptedModelServer } from '../../helpers/scripted-model-server';
import { createTestApp, TestApp } from '../../helpers/test-app';
import { query } from '../../helpers/test-database';

/** One provider, model `small` at $1 / $2 per million tokens (100 / 200 micro-cents a token), 32,000 output at most. */
const catalogue = (upstream: ScriptedModelServer) =>
  upstreamCatalogue(upstream, [
    {
      name: 'up',
      schema: 'openai-chat',
      keyEnv: 'UP_KEY',
      models: ['small: { prices: { input: 1, output: 2 }, max_output: 32000 }'],
    },
  ]);

describe('budget refusals say what to do, and a call the budget can afford is never refused', () => {
  let t: TestApp;
  let upstream: ScriptedModelServer;
  let owner: Person;

  beforeAll(async () => {
    upstream = await ScriptedModelServer.start();
    upstream.answerUnstreamed = true;
    t = await createTestApp({
      env: {
        OUTPOST_GATEWAY_CONFIG: catalogue(upstream),
        UP_KEY: 'sk-up',
        OUTPOST_GATEWAY_DEFAULT_MAX_TOKENS: '8000',
      },
    });
    owner = await signup(t);
  });
  afterAll(async () => {
    await t?.close();
    await upstream?.close();
  });

  const budgeted = async (dollars: number) => {
    const account = await serviceAccountKey(owner, owner.org, 'inference');
    const set = await owner
      .put(`/console/api/v1/budgets/members/${account.sa}`, { budget_dollars: dollars })
      .set('x-org-id', owner.org);
    expect(set.status).toBe(204);
    return account;
  };
  const call = (key: string, body: object) =>
    t.http
      .post('/inference/openai/v1/chat/completions')
      .set('authorization', bearer(key))
      .send({ model: 'small', messages: [{ role: 'user', content: 'x' }], ...body });

  it("max_tokens that is not a whole number within the model's limit is a 400 naming it, and nothing is held", async () => {
    const { key, sa } = await budgeted(1);
    for (const [value, message] of [
      [1e30, 'max_tokens: must be a whole number from 1 to 1000000'],
      [0, 'max_tokens: must be a whole number from 1 to 1000000'],
      [2.5, 'max_tokens: must be a whole number from 1 to 1000000'],
      [32001, 'max_tokens: must be at most 32000, the most "up/small" produces'],
    ] as const) {
      const res = await call(key, { max_tokens: value });
      expect({ status: res.status, message: res.body.error.message }).toEqual({ status: 400, message });
    }
    const refusedCompletion = await call(key, { max_completion_tokens: '9' });
    expect(refusedCompletion.status).toBe(400);
    expect(refusedCompletion.body.error.param).toBe('max_completion_tokens');
    const held = await query(
      t.databaseUrl!,
      'SELECT held_micro_cents::text AS held FROM member_spend WHERE member_id = $1',
      [sa],
    );
    expect(held.map((row) => row.held)).toEqual([]);
  });

  it('without max_tokens, a budgeted call holds a bounded allowance and the provider is told it', async () => {
    // $1 affords far more than the operator's default (8,000 output tokens here): the default is written in.
    const rich = await budgeted(1);
    upstream.script({ text: 'ok', usage: { input: 5, output: 5 } });
    expect((await call(rich.key, {})).status).toBe(200);
    expect(upstream.requests.at(-1)!.body.max_tokens).toBe(8000);

    // $0.01 = 1,000,000 micro-cents: the input (about 20 tokens x 100) and at most ~4,990 output tokens x 200.
    const poor = await budgeted(0.01);
    upstream.script({ text: 'ok', usage: { input: 5, output: 5 } });
    const res = await call(poor.key, {});
    expect(res.status).toBe(200);
    const allowed = upstream.requests.at(-1)!.body.max_tokens as number;
    expect(allowed).toBeGreaterThan(4_900);
    expect(allowed).toBeLessThan(5_000);
    // A caller who sets no limit and has no budget is not changed.
    const free = await serviceAccountKey(owner, owner.org, 'inference');
    upstream.script({ text: 'ok', usage: { input: 5, output: 5 } });
    expect((await call(free.key, {})).status).toBe(200);
    expect(upstream.requests.at(-1)!.body.max_tokens).toBeUndefined();
  });

  it('a refusal is a 402 the official SDK does not retry, saying what the call could cost, what is left and what to do', async () => {
    const { key } = await budgeted(0.01);
    const forwarded = upstream.requests.length;
    const client = new OpenAI({ baseURL: `${t.url}/inference/openai/v1`, apiKey: key, maxRetries: 3 });
    const error = (await client.chat.completions
      .create({ model: 'small', max_tokens: 20_000, messages: [{ role: 'user', content: 'x' }] })
      .catch((e: unknown) => e)) as InstanceType<typeof OpenAI.APIError>;
    expect(error.status).toBe(402);
    expect(error.message).toMatch(
      /^402 This request could cost up to \$0\.04\d+ \(with up to 20000 output tokens\), and your monthly budget has \$0\.01 left of \$0\.01 until \d{4}-\d{2}-01\. Lower max_tokens, or ask a workspace owner or admin to raise the budget\.$/,
    );
    expect(error.headers?.get('x-should-retry')).toBe('false');
    expect(upstream.requests.length).toBe(forwarded);
    // The same call within what is left goes through.
    upstream.script({ text: 'ok', usage: { input: 5, output: 5 } });
    const small = await client.chat.completions.create({
      model: 'small',
      max_tokens: 100,
      messages: [{ role: 'user', content: 'x' }],
    });
    expect(small.choices[0].message.content).toBe('ok');
  });
});
