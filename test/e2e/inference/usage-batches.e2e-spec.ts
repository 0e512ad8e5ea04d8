import { Client } from 'pg';
import { RequestLog } from '@/modules/budgets/request-log';
import { RequestLogRepository } from '@/modules/budgets/request-log.repository';
import { FLUSH_EVERY_MS, SettlementPart, UsageLedger } from '@/modules/budgets/usage-ledger';
import { UsageRepository } from '@/modules/budgets/usage.repository';
import { Person, serviceAccountKey, signup } from '../../helpers/console';
import { createTestApp, TestApp } from '../../helpers/test-app';
import { query } from '../../helpers/test-database';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A call's settlement: one token each way, a cent's ten-thousandth. */
const settlement = (workspaceId: string, memberId: string): SettlementPart => ({
  usage: {
    workspaceId,
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

  const part = (memberId: string) => settlement(owner.org, memberId);
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

/**
 * The usage ledger and the request log write a batch 200 ms after the first row. Each write used to go on with
 * whatever came while it ran, so under steady load a writer never waited: it wrote the few rows of the last
 * write's few milliseconds, one statement each, back to back (about a hundred COPY statements a second at 6,000
 * calls a second, seen in bench/gateway's probe). A write now takes what was pending when it began.
 */
describe('the gateway batch writers under steady load', () => {
  let t: TestApp;
  let owner: Person;

  beforeAll(async () => {
    t = await createTestApp();
    owner = await signup(t);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('write a batch per 200 ms, not one after every write, and lose nothing', async () => {
    const ledger = t.app.get(UsageLedger);
    const log = t.app.get(RequestLog);
    const usageWrites = jest.spyOn(t.app.get(UsageRepository), 'writeBatch');
    const logWrites = jest.spyOn(t.app.get(RequestLogRepository), 'copyBatch');
    // 400 rows a millisecond or more apart (fewer than a batch holds): the writes are counted against the time
    // the rows took, whatever the machine's load made of it.
    const calls = 400;
    const started = Date.now();
    for (let call = 1; call <= calls; call++) {
      ledger.settle(settlement(owner.org, owner.id));
      log.add({
        workspaceId: owner.org,
        memberId: owner.id,
        keyId: null,
        requestId: `pace-${call}`,
        route: '/inference/openai/v1/chat/completions',
        model: 'up/small',
        servedBy: 'up/small',
        status: 200,
        outcome: 'answered',
        inputTokens: 1,
        outputTokens: 1,
        costMicroCents: 100n,
        durationMs: 1,
        ttfbMs: 1,
      });
      await sleep(1); // paces the rows, so that they span several batches' time
    }
    const elapsed = Date.now() - started;
    await Promise.all([ledger.flush(), log.flush()]);

    // At least one batch written on its timer while rows kept coming (the first, 200 ms after the first row), then
    // the last flush; at most one batch per 200 ms the rows took, and the last flush. A writer that went on with
    // what came during its write would have written one batch after another, tens in this time.
    const most = Math.floor(elapsed / FLUSH_EVERY_MS) + 2;
    expect(usageWrites.mock.calls.length).toBeGreaterThanOrEqual(2);
    expect(usageWrites.mock.calls.length).toBeLessThanOrEqual(most);
    expect(logWrites.mock.calls.length).toBeGreaterThanOrEqual(2);
    expect(logWrites.mock.calls.length).toBeLessThanOrEqual(most);
    usageWrites.mockRestore();
    logWrites.mockRestore();

    const [spend] = await query(
      t.databaseUrl!,
      'SELECT spent_micro_cents::text AS spent FROM member_spend WHERE workspace_id = $1 AND member_id = $2',
      [owner.org, owner.id],
    );
    expect(spend.spent).toBe(String(calls * 100));
    const [logged] = await query(
      t.databaseUrl!,
      `SELECT count(*)::int AS n FROM request_log WHERE workspace_id = $1 AND request_id LIKE 'pace-%'`,
      [owner.org],
    );
    expect(logged.n).toBe(calls);
  });
});
