import OpenAI from 'openai';
import { bearer, Person, signup } from '../../helpers/console';
import { ScriptedModelServer } from '../../helpers/scripted-model-server';
import { gatewayCatalogue } from '../../helpers/gateway-catalogue';
import { createTestApp, TestApp } from '../../helpers/test-app';
import { query } from '../../helpers/test-database';

const SECRET = 'key-budget-test-secret-0123456789';

/**
 * `dear` costs $1,000 / $2,000 per million tokens: a call answering 10 in / 10 out costs $0.03, and its worst case
 * with max_tokens 10 (the input estimated from the request's length) is about $0.04 — so a $0.09 budget admits two
 * calls at once, and after two answered calls ($0.06 spent) no third.
 */
describe("a key's own monthly budget on the gateway (monthly_budget_dollars), held like a member's", () => {
  let t: TestApp;
  let second: TestApp;
  let upstream: ScriptedModelServer;
  let owner: Person;
  let sa: string;

  beforeAll(async () => {
    upstream = await ScriptedModelServer.start();
    upstream.answerUnstreamed = true;
    upstream.fallback = { text: 'ok', usage: { input: 10, output: 10 } };
    const file = gatewayCatalogue(
      `providers:
  up:
    base_url: ${upstream.baseURL}
    schema: openai-chat
    api_key_env: UP_KEY
    models:
      dear: { prices: { input: 1000, output: 2000 } }
`,
    );
    const env = { OUTPOST_GATEWAY_CONFIG: file, UP_KEY: 'sk-up', OUTPOST_SECRET_KEY: SECRET };
    t = await createTestApp({ env });
    second = await createTestApp({ env, databaseUrl: t.databaseUrl });
    second.clock.set(t.clock.now());
    owner = await signup(t);
    sa = (await owner.post(`/console/api/orgs/${owner.org}/service-accounts`, { name: 'ci' })).body.id;
  });
  afterAll(async () => {
    await second?.close();
    await t?.close();
    await upstream?.close();
  });

  const keysPath = () => `/console/api/orgs/${owner.org}/service-accounts/${sa}/keys`;
  const createKey = async (controls: object = {}) => {
    const res = await owner.post(keysPath(), { name: 'budgeted', permission: 'inference', ...controls });
    expect(res.status).toBe(201);
    return res.body as { id: string; key: string; monthly_budget_dollars: number | null };
  };
  const call = (app: TestApp, key: string, body: object = { max_tokens: 10 }) =>
    app.http
      .post('/inference/openai/v1/chat/completions')
      .set('authorization', bearer(key))
      .send({ model: 'up/dear', messages: [{ role: 'user', content: 'x' }], ...body });
  const settled = async () => {
    for (const node of [...t.nodes, ...second.nodes]) await node.flush();
  };
  const spendOf = async (keyId: string) => {
    const rows = await query<{ spent: string; held: string }>(
      t.databaseUrl!,
      'SELECT spent_micro_cents AS spent, held_micro_cents AS held FROM member_spend WHERE member_id = $1',
      [keyId],
    );
    return { spent: BigInt(rows[0]?.spent ?? 0), held: BigInt(rows[0]?.held ?? 0) };
  };

  it("refuses the call its budget cannot cover with 402 in the SDK's class, naming the key's budget; other keys go on", async () => {
    const budgeted = await createKey({ monthly_budget_dollars: 0.09 });
    expect(budgeted.monthly_budget_dollars).toBe(0.09);
    expect((await call(t, budgeted.key)).status).toBe(200);
    await settled();
    expect((await call(second, budgeted.key)).status).toBe(200);
    await settled();
    expect(await spendOf(budgeted.id)).toEqual({ spent: 6_000_000n, held: 0n });
    const openai = new OpenAI({
      baseURL: `${t.url}/inference/openai/v1`,
      apiKey: budgeted.key,
      maxRetries: 0,
    });
    const refused = await openai.chat.completions
      .create({ model: 'up/dear', max_tokens: 10, messages: [{ role: 'user', content: 'x' }] })
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(OpenAI.APIError);
    expect((refused as InstanceType<typeof OpenAI.APIError>).status).toBe(402);
    expect((refused as Error).message).toMatch(/this key's monthly budget has \$0\.03 left of \$0\.09/);
    // The same service account's other key has no budget of its own: it is not refused.
    const other = await createKey();
    expect((await call(t, other.key)).status).toBe(200);
    // Raised with PATCH, the next call passes; the change is audited by its API name.
    const raised = await owner.patch(`${keysPath()}/${budgeted.id}`, { monthly_budget_dollars: 1 });
    expect(raised.body.monthly_budget_dollars).toBe(1);
    expect((await call(t, budgeted.key)).status).toBe(200);
    const audit = await owner.get(`/console/api/orgs/${owner.org}/audit`);
    const update = audit.body.entries.find(
      (entry: { action: string; target: { id: string } }) =>
        entry.action === 'key.updated' && entry.target.id === budgeted.id,
    );
    expect(update.details).toMatchObject({ changed: ['monthly_budget_dollars'], monthly_budget_dollars: 1 });
    const cleared = await owner.patch(`${keysPath()}/${budgeted.id}`, { monthly_budget_dollars: null });
    expect(cleared.body.monthly_budget_dollars).toBeNull();
  });

  it('concurrent calls on two server processes never pass the budget: two of eight are admitted', async () => {
    const { id, key } = await createKey({ monthly_budget_dollars: 0.09 });
    const statuses = await Promise.all(
      Array.from({ length: 8 }, (_, i) => call(i % 2 ? second : t, key).then((res) => res.status)),
    );
    expect(statuses.filter((status) => status === 200)).toHaveLength(2);
    expect(statuses.filter((status) => status === 402)).toHaveLength(6);
    await settled();
    const spend = await spendOf(id);
    expect(spend).toEqual({ spent: 6_000_000n, held: 0n });
    // A refusal by a later budget gives the key's hold back: the member's budget is used up here.
    const memberBudget = `/console/api/v1/budgets/members/${sa}`;
    expect((await owner.put(memberBudget, { budget_dollars: 0 }).set('x-org-id', owner.org)).status).toBe(
      204,
    );
    const roomy = await createKey({ monthly_budget_dollars: 5 });
    const refused = await call(t, roomy.key);
    expect(refused.status).toBe(402);
    expect(refused.body.error.message).toMatch(/your monthly budget of \$0\.00 is used up/);
    expect(await spendOf(roomy.id)).toEqual({ spent: 0n, held: 0n });
    expect((await owner.del(memberBudget).set('x-org-id', owner.org)).status).toBe(204);
  });

  it("a call without max_tokens gets what the key's budget affords written into the provider's request", async () => {
    const { key } = await createKey({ monthly_budget_dollars: 0.1 });
    const before = upstream.requests.length;
    expect((await call(t, key, {})).status).toBe(200);
    const sent = upstream.requests[before].body as { max_tokens?: number; max_completion_tokens?: number };
    const limit = sent.max_completion_tokens ?? sent.max_tokens;
    // ($0.10 − input) / $0.002 per output token: a few dozen tokens, not the model's thousands.
    expect(limit).toBeGreaterThan(10);
    expect(limit).toBeLessThan(50);
  });

  it('is validated by field and changes nothing when wrong', async () => {
    const { id } = await createKey({ monthly_budget_dollars: 3 });
    for (const [value, message] of [
      [-1, 'monthly_budget_dollars: must not be negative'],
      [
        1.234,
        'monthly_budget_dollars: must be an amount in US dollars with at most two decimals, e.g. 12.34',
      ],
      ['5', /^monthly_budget_dollars: /],
    ] as const) {
      const bad = await owner.patch(`${keysPath()}/${id}`, { monthly_budget_dollars: value });
      expect(bad.status).toBe(400);
      expect(bad.body.message).toMatch(message);
    }
    const listed = await owner.get(keysPath());
    expect(listed.body.find((key: { id: string }) => key.id === id).monthly_budget_dollars).toBe(3);
    const created = await owner.post(`/console/api/orgs/${owner.org}/keys`, {
      name: 'mine',
      permission: 'inference',
      monthly_budget_dollars: 2.5,
    });
    expect(created.body.monthly_budget_dollars).toBe(2.5);
  });
});
