import { Client } from 'pg';
import { createTestApp, TestApp } from '../../helpers/test-app';
import { bearer, Person, signupTeam } from '../../helpers/console';
import { BudgetsService } from '@/modules/budgets/budgets.service';
import { utcMonth } from '@/common/money';

const MEMBERS = '/console/api/v1/budgets/members';
const DEFAULT = '/console/api/v1/budgets/default';

interface BudgetMember {
  user_id: string;
  email: string | null;
  kind: string;
  limit_micro_cents: string | null;
  spent_micro_cents: string;
  exceeded: boolean;
  resets_at: string;
  source: string | null;
  updated_at: string | null;
}

/** The Budgets family: `/console/api/v1/budgets/*`, and `BudgetsService.recordUsage()`. */
describe('member budgets', () => {
  let t: TestApp;
  let budgets: BudgetsService;
  let owner: Person;
  let admin: Person;
  let member: Person;
  let stranger: Person;
  let sa: string;
  let allKey: string;
  let inferenceKey: string;

  const withKey = (method: 'get' | 'put' | 'delete', path: string, key = allKey) =>
    t.http[method](path).set('authorization', bearer(key));
  const list = async (): Promise<BudgetMember[]> => {
    const res = await withKey('get', MEMBERS);
    expect(res.status).toBe(200);
    return res.body;
  };
  const entry = async (id: string) => (await list()).find((m) => m.user_id === id)!;
  const setBudget = (id: string, budget_dollars: unknown) =>
    withKey('put', `${MEMBERS}/${id}`).send({ budget_dollars });
  const auditActions = async (action: string) => {
    const { entries } = (await owner.get(`/console/api/orgs/${owner.org}/audit?limit=100`)).body;
    return (entries as Array<{ action: string; target: { id: string } }>).filter((e) => e.action === action);
  };

  beforeAll(async () => {
    t = await createTestApp();
    budgets = t.app.get(BudgetsService);
    // Emails chosen so that the order by email differs from the order of creation.
    const team = await signupTeam(t, {
      owner: 'carol@example.com',
      admin: 'alice@example.com',
      member: 'bob@example.com',
      stranger: 'zed@example.com',
    });
    ({ owner, admin, member, stranger, allKey, inferenceKey } = team);
    sa = team.allSa;
  });
  afterAll(() => t.close());

  it('lists every member (by email) and service account for the current UTC month', async () => {
    const members = await list();
    expect(members.map((m) => m.email)).toEqual([
      'alice@example.com',
      'bob@example.com',
      'carol@example.com',
      null,
      null,
    ]);
    expect(members.slice(3).every((m) => m.kind === 'service_account' && m.user_id.startsWith('sa_'))).toBe(
      true,
    );
    const { next } = utcMonth(t.clock.now());
    expect(members[0]).toEqual({
      user_id: admin.id,
      email: 'alice@example.com',
      name: expect.any(String),
      kind: 'person',
      limit_micro_cents: null,
      spent_micro_cents: '0',
      exceeded: false,
      resets_at: next.toISOString(),
      source: null,
      updated_at: null,
    });
  });

  describe('a member’s own budget', () => {
    it('is set in dollars and shown in micro-cents (decimal strings), source custom', async () => {
      expect((await setBudget(member.id, 75.25)).status).toBe(204);
      const shown = await entry(member.id);
      expect(shown).toMatchObject({ limit_micro_cents: '7525000000', source: 'custom', exceeded: false });
      expect(Date.parse(shown.updated_at!)).not.toBeNaN();
    });

    it('is idempotent: the same PUT again is 204, changes nothing and audits once', async () => {
      expect((await setBudget(member.id, 12.5)).status).toBe(204);
      const before = await entry(member.id);
      expect((await setBudget(member.id, 12.5)).status).toBe(204);
      expect(await entry(member.id)).toEqual(before);
      const sets = (await auditActions('budget.member_set')).filter((e) => e.target.id === member.id);
      expect(sets).toHaveLength(2); // 75.25, then 12.50
    });

    it.each([
      [0.29, '29000000'],
      [0.1, '10000000'],
      [19.99, '1999000000'],
      [1000000, '100000000000000'],
      [0, '0'],
    ])('converts %p dollars exactly to %s micro-cents', async (dollars, micro) => {
      expect((await setBudget(admin.id, dollars)).status).toBe(204);
      expect((await entry(admin.id)).limit_micro_cents).toBe(micro);
    });

    it.each([
      ['three decimals', 1.005],
      ['a negative amount', -1],
      ['a string', '10'],
      ['null', null],
      ['a huge amount', 1e12],
    ])('refuses %s with 400 naming budget_dollars', async (_name, dollars) => {
      const res = await setBudget(admin.id, dollars);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ _tag: 'InvalidRequestError', field: 'budget_dollars' });
    });

    it('refuses a missing amount or extra members with 400', async () => {
      expect((await withKey('put', `${MEMBERS}/${admin.id}`).send({})).status).toBe(400);
      expect((await withKey('put', `${MEMBERS}/${admin.id}`).send({ budget_dollars: 1, x: 1 })).status).toBe(
        400,
      );
    });

    it('addresses a service account by its sa_ id', async () => {
      expect((await setBudget(sa, 5)).status).toBe(204);
      expect(await entry(sa)).toMatchObject({ kind: 'service_account', limit_micro_cents: '500000000' });
    });

    it('answers 404 NotFound for someone outside the workspace and 400 for a malformed id', async () => {
      const outsider = await setBudget(stranger.id, 5);
      expect(outsider.status).toBe(404);
      expect(outsider.body._tag).toBe('NotFound');
      expect((await setBudget('sa_01ZZZZZZZZZZZZZZZZZZZZZZZZ', 5)).status).toBe(404);
      expect((await withKey('delete', `${MEMBERS}/${stranger.id}`)).status).toBe(404);
      const bad = await setBudget('robert', 5);
      expect(bad.status).toBe(400);
      expect(bad.body.field).toBe('user_id');
    });
  });

  describe('the workspace default', () => {
    afterAll(async () => {
      expect((await withKey('put', DEFAULT).send({ budget_dollars: null })).status).toBe(204);
    });

    it('applies to members without their own budget; DELETE falls back to it (idempotent)', async () => {
      expect((await withKey('put', DEFAULT).send({ budget_dollars: 10 })).status).toBe(204);
      expect((await withKey('get', DEFAULT)).body).toEqual({
        limit_micro_cents: '1000000000',
        updated_at: expect.any(String),
      });
      expect(await entry(owner.id)).toMatchObject({
        limit_micro_cents: '1000000000',
        source: 'default',
        updated_at: null,
      });
      expect((await entry(member.id)).source).toBe('custom');
      expect((await withKey('delete', `${MEMBERS}/${member.id}`)).status).toBe(204);
      expect((await withKey('delete', `${MEMBERS}/${member.id}`)).status).toBe(204);
      expect(await entry(member.id)).toMatchObject({
        limit_micro_cents: '1000000000',
        source: 'default',
        updated_at: null,
      });
      expect(await auditActions('budget.member_cleared')).toHaveLength(1);
    });

    it('null makes members without their own budget unlimited again', async () => {
      expect((await withKey('put', DEFAULT).send({ budget_dollars: null })).status).toBe(204);
      expect(await entry(owner.id)).toMatchObject({ limit_micro_cents: null, source: null });
      const defaults = await auditActions('budget.default_set');
      expect(defaults.length).toBeGreaterThanOrEqual(2);
    });

    it('refuses a missing or invalid amount with 400', async () => {
      expect((await withKey('put', DEFAULT).send({})).status).toBe(400);
      expect((await withKey('put', DEFAULT).send({ budget_dollars: 2.345 })).status).toBe(400);
    });
  });

  describe('who may read and change budgets', () => {
    it('an All key, and owners and admins with x-org-id (cookie or user token)', async () => {
      expect((await admin.get(MEMBERS).set('x-org-id', owner.org)).status).toBe(200);
      const token = (await owner.post('/console/api/tokens', { name: 'budgets' })).body.token;
      const viaToken = await t.http
        .get(MEMBERS)
        .set('authorization', bearer(token))
        .set('x-org-id', owner.org);
      expect(viaToken.status).toBe(200);
      expect(
        (await owner.put(`${MEMBERS}/${member.id}`, { budget_dollars: 3 }).set('x-org-id', owner.org)).status,
      ).toBe(204);
    });

    it('an Inference-only key gets 403 Forbidden, a member 403, no credential 401, no x-org-id 400', async () => {
      const inference = await withKey('get', MEMBERS, inferenceKey);
      expect(inference.status).toBe(403);
      expect(inference.body._tag).toBe('Forbidden');
      expect(
        (await withKey('put', `${MEMBERS}/${member.id}`, inferenceKey).send({ budget_dollars: 1 })).status,
      ).toBe(403);
      expect((await member.get(MEMBERS).set('x-org-id', owner.org)).status).toBe(403);
      expect(
        (await member.put(`${MEMBERS}/${member.id}`, { budget_dollars: 100 }).set('x-org-id', owner.org))
          .status,
      ).toBe(403);
      expect((await t.http.get(MEMBERS)).status).toBe(401);
      expect((await owner.get(MEMBERS)).body._tag).toBe('OrgRequired');
    });
  });

  describe('spending', () => {
    it('adds up, and exceeded turns true once spent reaches the limit', async () => {
      expect((await setBudget(member.id, 1)).status).toBe(204);
      const usage = {
        workspaceId: owner.org,
        memberId: member.id,
        model: 'gpt-5',
        inputTokens: 10,
        outputTokens: 5,
      };
      await budgets.recordUsage({ ...usage, costMicroCents: 60_000_000n });
      expect(await entry(member.id)).toMatchObject({ spent_micro_cents: '60000000', exceeded: false });
      const { spentMicroCents } = await budgets.recordUsage({ ...usage, costMicroCents: 40_000_000n });
      expect(spentMicroCents).toBe(100_000_000n);
      expect(await entry(member.id)).toMatchObject({ spent_micro_cents: '100000000', exceeded: true });
      expect(await budgets.status(owner.org, member.id)).toMatchObject({
        limitMicroCents: 100_000_000n,
        spentMicroCents: 100_000_000n,
        exceeded: true,
        source: 'custom',
      });
    });

    it('adds 100 concurrent recordUsage calls for one member exactly, one usage row each', async () => {
      const before = BigInt((await entry(sa)).spent_micro_cents);
      await Promise.all(
        Array.from({ length: 100 }, (_, i) =>
          budgets.recordUsage({
            workspaceId: owner.org,
            memberId: sa,
            keyId: 'key_bench',
            model: 'claude-sonnet',
            inputTokens: i,
            outputTokens: 1,
            costMicroCents: 1_234_567n,
          }),
        ),
      );
      expect(BigInt((await entry(sa)).spent_micro_cents) - before).toBe(123_456_700n);
      const db = new Client({ connectionString: t.databaseUrl });
      await db.connect();
      const { rows } = await db.query(
        `SELECT count(*)::int AS n, sum(cost_micro_cents)::text AS total FROM usage WHERE member_id = $1`,
        [sa],
      );
      await db.end();
      expect(rows[0]).toEqual({ n: 100, total: '123456700' });
    });

    it('starts again at zero at the UTC month boundary (injected clock)', async () => {
      const { next } = utcMonth(Date.now());
      const usage = {
        workspaceId: owner.org,
        memberId: admin.id,
        model: 'gpt-5',
        inputTokens: 1,
        outputTokens: 1,
      };
      try {
        t.clock.set(next.getTime() - 1000);
        await budgets.recordUsage({ ...usage, costMicroCents: 500n });
        await budgets.recordUsage({ ...usage, costMicroCents: 250n });
        expect((await entry(admin.id)).spent_micro_cents).toBe('750');
        t.clock.set(next.getTime());
        const fresh = await entry(admin.id);
        expect(fresh.spent_micro_cents).toBe('0');
        expect(fresh.resets_at).toBe(utcMonth(next.getTime()).next.toISOString());
        const { spentMicroCents } = await budgets.recordUsage({ ...usage, costMicroCents: 100n });
        expect(spentMicroCents).toBe(100n);
        expect((await entry(admin.id)).spent_micro_cents).toBe('100');
      } finally {
        t.clock.set(Date.now());
      }
    });
  });
});
