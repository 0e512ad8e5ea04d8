/**
 * Monthly budgets under load: 200 concurrent requests against a member's budget and 60 against a whole
 * workspace's, never admitted past it, the spend equal to the recorded usage and no hold left behind.
 */
import { bearer, serviceAccountKey, signup } from '../../helpers/console';
import { query } from '../../helpers/test-database';
import { spent, spentBecomes } from './gateway-fixture';
// Set before the tests by useGatewayApp().
import { owner, t, upstream, useGatewayApp } from './gateway-fixture';

describe('the inference gateway (/inference/*) with the official SDKs', () => {
  // Refused calls wait for the holds in flight, which the gate keeps out until every call is decided: a short wait.
  useGatewayApp({ OUTPOST_GATEWAY_HOLD_WAIT_MS: '1500' });

  it('200 concurrent requests whose holds exceed the budget 10x: never admitted past it; spend equals the recorded usage', async () => {
    const second = await serviceAccountKey(owner, owner.org, 'inference');
    // Worst case per request: max_tokens 1000 x 200 + a small input estimate, about 0.2 cents: 24 fit in 5 cents.
    const limitCents = 5;
    const set = await owner
      .put(`/console/api/v1/budgets/members/${second.sa}`, { budget_dollars: limitCents / 100 })
      .set('x-org-id', owner.org);
    expect({ status: set.status, body: set.body }).toEqual({ status: 204, body: {} });
    upstream.answerUnstreamed = true;
    // The provider answers nobody until every request was either forwarded or refused: all holds are
    // decided while every admitted request is still out.
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    upstream.script(
      ...Array.from({ length: 200 }, () => ({ text: 'ok', usage: { input: 10, output: 10 }, until: gate })),
    );
    const forwardedBefore = upstream.requests.length;
    let refusedSoFar = 0;
    const pending = Array.from({ length: 200 }, () =>
      t.http
        .post('/inference/openai/v1/chat/completions')
        .set('authorization', bearer(second.key))
        .send({ model: 'small', max_tokens: 1000, messages: [{ role: 'user', content: 'x' }] })
        .then((res) => {
          if (res.status === 402) refusedSoFar++;
          return res;
        }),
    );
    for (let i = 0; i < 1_500 && upstream.requests.length - forwardedBefore + refusedSoFar < 200; i++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    release();
    const results = await Promise.all(pending);
    upstream.dropPending();
    const admitted = results.filter((res) => res.status === 200);
    const refused = results.filter((res) => res.status === 402);
    expect(admitted.length + refused.length).toBe(200);
    // A 402 the SDKs do not retry (the AI SDK retries every 429), saying what the call could cost and what is left.
    expect(refused[0].body.error).toMatchObject({ code: 'UserLimitError', type: 'insufficient_quota' });
    expect(refused[0].headers['x-should-retry']).toBe('false');
    expect(refused[0].body.error.message).toMatch(
      /^This request could cost up to \$0\.\d+ \(with up to 1000 output tokens\), and your monthly budget has \$0\.\d+ left of \$0\.05 until \d{4}-\d{2}-01\. Lower max_tokens, or ask a workspace owner or admin to raise the budget\.$/,
    );
    expect(refused[0].body.resets_at).toMatch(/^\d{4}-\d{2}-01T00:00:00.000Z$/);
    // Holds are taken one at a time against the limit: never more admitted than the worst case allows.
    const limit = BigInt(Math.round(limitCents * 1_000_000));
    expect(admitted.length).toBeGreaterThan(0);
    expect(BigInt(admitted.length) * (1000n * 200n)).toBeLessThanOrEqual(limit);
    const expected = BigInt(admitted.length) * (10n * 100n + 10n * 200n);
    expect(await spentBecomes(expected, second.sa)).toBe(expected);
    const recorded = await query(
      t.databaseUrl!,
      `SELECT coalesce(sum(cost_micro_cents), 0)::text AS total, sum(requests)::int AS requests,
              count(*)::int AS rows FROM usage WHERE member_id = $1`,
      [second.sa],
    );
    expect(await spent(second.sa)).toBe(BigInt(recorded[0].total));
    // Settled together, the admitted requests share a usage row per second, and the report counts each of them.
    expect(recorded[0].requests).toBe(admitted.length);
    expect(recorded[0].rows).toBeLessThan(admitted.length);
    const report = await owner.get(
      `/console/api/orgs/${owner.org}/usage?group_by=member&from=2000-01-01T00:00:00Z`,
    );
    expect(report.body.data.find((row: { key: string }) => row.key === second.sa)).toMatchObject({
      requests: admitted.length,
      spent_micro_cents: recorded[0].total,
    });
    const held = await query(
      t.databaseUrl!,
      'SELECT held_micro_cents::text AS held FROM member_spend WHERE member_id = $1',
      [second.sa],
    );
    expect(held[0].held).toBe('0');
  });

  it("the whole workspace's monthly budget holds across its members: WorkspaceLimitError past it", async () => {
    const team = await signup(t);
    const [a, b] = [
      await serviceAccountKey(team, team.org, 'inference'),
      await serviceAccountKey(team, team.org, 'inference'),
    ];
    const budget = (body: object) =>
      team.put('/console/api/v1/budgets/workspace', body).set('x-org-id', team.org);
    const bad = await budget({ budget_dollars: -1 });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toContain('budget_dollars');
    // Worst case per request: 1000 x 200 micro-cents plus the input estimate; $0.02 fits 9 of them at most.
    expect((await budget({ budget_dollars: 0.02 })).status).toBe(204);
    upstream.answerUnstreamed = true;
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    upstream.script(
      ...Array.from({ length: 60 }, () => ({ text: 'ok', usage: { input: 10, output: 10 }, until: gate })),
    );
    const forwardedBefore = upstream.requests.length;
    let refusedSoFar = 0;
    const pending = Array.from({ length: 60 }, (_, i) =>
      t.http
        .post('/inference/openai/v1/chat/completions')
        .set('authorization', bearer((i % 2 ? a : b).key))
        .send({ model: 'small', max_tokens: 1000, messages: [{ role: 'user', content: 'x' }] })
        .then((res) => {
          if (res.status === 402) refusedSoFar++;
          return res;
        }),
    );
    for (let i = 0; i < 1_500 && upstream.requests.length - forwardedBefore + refusedSoFar < 60; i++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    release();
    const results = await Promise.all(pending);
    upstream.dropPending();
    const admitted = results.filter((res) => res.status === 200).length;
    const refused = results.filter((res) => res.status === 402);
    expect(admitted + refused.length).toBe(60);
    expect(admitted).toBeGreaterThan(0);
    expect(BigInt(admitted) * 200_000n).toBeLessThanOrEqual(2_000_000n);
    expect(refused[0].body.error).toMatchObject({ code: 'WorkspaceLimitError', type: 'insufficient_quota' });
    expect(refused[0].body.resets_at).toMatch(/^\d{4}-\d{2}-01T00:00:00.000Z$/);
    expect(refused[0].body.error.message).toContain("workspace's monthly budget");

    const expected = BigInt(admitted) * (10n * 100n + 10n * 200n);
    let status = await team.get('/console/api/v1/budgets/workspace').set('x-org-id', team.org);
    for (let i = 0; i < 50 && status.body.spent_micro_cents !== String(expected); i++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      status = await team.get('/console/api/v1/budgets/workspace').set('x-org-id', team.org);
    }
    expect(status.body).toMatchObject({
      limit_micro_cents: '2000000',
      spent_micro_cents: String(expected),
      exceeded: false,
    });
    const held = await query(
      t.databaseUrl!,
      'SELECT held_micro_cents::text AS held FROM workspace_spend WHERE workspace_id = $1',
      [team.org],
    );
    expect(held[0].held).toBe('0');
    const audit = await team.get(`/console/api/orgs/${team.org}/audit`);
    expect(JSON.stringify(audit.body)).toContain('budget.workspace_set');
    // Unlimited again: the same request is admitted.
    expect((await budget({ budget_dollars: null })).status).toBe(204);
    upstream.script({ text: 'ok', usage: { input: 1, output: 1 } });
    expect(
      (
        await t.http
          .post('/inference/openai/v1/chat/completions')
          .set('authorization', bearer(a.key))
          .send({ model: 'small', max_tokens: 4000, messages: [{ role: 'user', content: 'x' }] })
      ).status,
    ).toBe(200);
  });
});
