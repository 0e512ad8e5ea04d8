import { bearer, Person, signup } from '../../helpers/console';
import { ScriptedModelServer } from '../../helpers/scripted-model-server';
import { gatewayCatalogue } from '../../helpers/gateway-catalogue';
import { createTestApp, TestApp } from '../../helpers/test-app';
import { query } from '../../helpers/test-database';

jest.setTimeout(300_000);

const SECRET = 'back-to-back-test-secret-0123456789';
/** `small` at $5 / $20 per million tokens; every answer is 10 in, 10 out: $0.00025 a call, 40 calls in $0.01. */
const CALL_MICRO_CENTS = 25_000n;
const BUDGET_MICRO_CENTS = 1_000_000n;

/**
 * Calls without max_tokens on a small budget: each holds (nearly) all that is left while it runs, so a finished
 * call's hold must be given back before its caller can send the next, and concurrent calls wait for each other's
 * holds instead of being refused for them. Refused only once the real spend leaves no room; never overspent.
 */
describe('a small budget and calls without max_tokens: no refusal the budget can afford', () => {
  let t: TestApp;
  let second: TestApp;
  let upstream: ScriptedModelServer;
  let owner: Person;
  let sa: string;

  beforeAll(async () => {
    upstream = await ScriptedModelServer.start();
    upstream.fallback = { text: 'ok', usage: { input: 10, output: 10 } };
    const file = gatewayCatalogue(
      `providers:
  up:
    base_url: ${upstream.baseURL}
    schema: openai-chat
    api_key_env: UP_KEY
    models:
      small: { prices: { input: 5, output: 20 } }
`,
    );
    // Forty calls that each hold nearly all that is left run one after another: on a loaded machine the last waits
    // longer than the default 30 s for the holds before it. What is tested is that it waits, not for how long.
    const env = {
      OUTPOST_GATEWAY_CONFIG: file,
      UP_KEY: 'sk-up',
      OUTPOST_SECRET_KEY: SECRET,
      OUTPOST_GATEWAY_HOLD_WAIT_MS: '600000',
    };
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

  const budgetedKey = async () => {
    const res = await owner.post(`/console/api/orgs/${owner.org}/service-accounts/${sa}/keys`, {
      name: 'small budget',
      permission: 'inference',
      monthly_budget_dollars: 0.01,
    });
    expect(res.status).toBe(201);
    return res.body as { id: string; key: string };
  };
  const call = (app: TestApp, key: string, stream: boolean) =>
    app.http
      .post('/inference/openai/v1/chat/completions')
      .set('authorization', bearer(key))
      .send({ model: 'up/small', stream, messages: [{ role: 'user', content: 'x' }] })
      .then((res) => res.status);
  const spendOf = async (keyId: string) => {
    for (const node of [...t.nodes, ...second.nodes]) await node.flush();
    const [row] = await query<{ spent: string; held: string }>(
      t.databaseUrl!,
      'SELECT spent_micro_cents AS spent, held_micro_cents AS held FROM member_spend WHERE member_id = $1',
      [keyId],
    );
    return { spent: BigInt(row.spent), held: BigInt(row.held) };
  };

  it('50 calls back to back, on two nodes, whole and streamed: 40 answered until the budget is spent, then 402', async () => {
    const { id, key } = await budgetedKey();
    const statuses: number[] = [];
    for (let i = 0; i < 50; i++) statuses.push(await call(i % 2 ? second : t, key, i % 3 === 0));
    const calls = Number(BUDGET_MICRO_CENTS / CALL_MICRO_CENTS);
    expect(statuses).toEqual([...Array(calls).fill(200), ...Array(50 - calls).fill(402)]);
    expect(await spendOf(id)).toEqual({ spent: BUDGET_MICRO_CENTS, held: 0n });
  });

  it('10 concurrent calls all answered, then 40 concurrent: 30 answered and 10 refused; the spend never passes the budget', async () => {
    const { id, key } = await budgetedKey();
    const wave = (n: number) =>
      Promise.all(Array.from({ length: n }, (_, i) => call(i % 2 ? second : t, key, i % 4 === 0)));
    expect(await wave(10)).toEqual(Array(10).fill(200));
    expect(await spendOf(id)).toEqual({ spent: 10n * CALL_MICRO_CENTS, held: 0n });
    const statuses = await wave(40);
    expect(statuses.filter((status) => status === 200)).toHaveLength(30);
    expect(statuses.filter((status) => status === 402)).toHaveLength(10);
    expect(await spendOf(id)).toEqual({ spent: BUDGET_MICRO_CENTS, held: 0n });
  });
});
