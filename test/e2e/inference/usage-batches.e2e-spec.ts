import { Client } from 'pg';
import { SettlementPart, UsageLedger } from '@/modules/budgets/usage-ledger';
import { Person, serviceAccountKey, signup } from '../../helpers/console';
import { createTestApp, TestApp } from '../../helpers/test-app';
import { query } from '../../helpers/test-database';

/**
 * Two nodes' usage batches update the same spend rows (a member's, the workspace's). Each batch is one statement
 * that locks the rows it updates in its own order; two such orders could each hold a row the other waits for, a
 * deadlock PostgreSQL finds only after a second (`deadlock_timeout`), failing one batch, retried later. Each batch
 * locks its rows in one order (sorted), so they queue instead.
 */
describe('usage batches of two nodes on the same members', () => {
  let t: TestApp;
  let second: TestApp;
  let owner: Person;
  let sa: string;

  beforeAll(async () => {
    t = await createTestApp();
    second = await createTestApp({ databaseUrl: t.databaseUrl });
    owner = await signup(t);
    sa = (await serviceAccountKey(owner, owner.org, 'inference')).sa;
  });
  afterAll(async () => {
    await second?.close();
    await t?.close();
  });

  const part = (memberId: string): SettlementPart => ({
    usage: {
      workspaceId: owner.org,
      memberId,
      keyId: null,
      model: 'up/small',
      inputTokens: 1,
      outputTokens: 1,
      costMicroCents: 100n,
    },
    held: 0n,
    workspaceHeld: 0n,
    keyHeld: 0n,
  });
  const spent = async () =>
    query(
      t.databaseUrl!,
      'SELECT member_id, spent_micro_cents::text AS spent FROM member_spend WHERE workspace_id = $1 ORDER BY 1',
      [owner.org],
    );
  const lockRow = async (memberId: string) => {
    const client = new Client({ connectionString: t.databaseUrl });
    await client.connect();
    await client.query('BEGIN');
    await client.query('SELECT 1 FROM member_spend WHERE workspace_id = $1 AND member_id = $2 FOR UPDATE', [
      owner.org,
      memberId,
    ]);
    return client;
  };

  it('settled in opposite orders on two nodes at once, both batches are written at the first try', async () => {
    const [a, b] = [owner.id, sa];
    const first = t.app.get(UsageLedger);
    const other = second.app.get(UsageLedger);
    first.settle(part(a));
    first.settle(part(b));
    await first.flush();
    expect(await spent()).toHaveLength(2);

    // Both rows held elsewhere, so each batch waits at the first row it locks; released together, a batch locking
    // a then b and one locking b then a would each get their first row and wait for the other's.
    const holders = [await lockRow(a), await lockRow(b)];
    first.settle(part(a));
    first.settle(part(b));
    other.settle(part(b));
    other.settle(part(a));
    const flushed = Promise.all([first.flush(), other.flush()]);
    for (let i = 0; i < 250; i++) {
      const [{ waiting }] = await query(
        t.databaseUrl!,
        `SELECT count(*)::int AS waiting FROM pg_stat_activity
          WHERE datname = current_database() AND wait_event_type = 'Lock'`,
      );
      if (waiting === 2) break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    await Promise.all(holders.map((client) => client.query('COMMIT').then(() => client.end())));
    await flushed;

    // flush() resolves once its batch is written, or once it failed (then it is retried later): written now.
    expect(await spent()).toEqual([a, b].sort().map((member_id) => ({ member_id, spent: '300' })));
  });
});
