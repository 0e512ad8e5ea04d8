import { existsSync, mkdtempSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { UsageJournal } from '@/modules/budgets/usage-journal';
import { deadProcessId, killedGateway } from '../../helpers/killed-gateway';
import { inferenceAccount, setMemberBudget } from '../../helpers/remote-console';
import { query } from '../../helpers/test-database';

jest.setTimeout(120_000);

const SECRET = 'usage-journal-test-secret-0123456789';
const CALLS = 20;

/**
 * Usage is written to the database in batches every 200 ms; a process killed with SIGKILL in between used to lose
 * the calls it had answered in that window. Each settlement is now journaled on the node's disk before the caller
 * has the answer, and the next process on the same data directory writes what the dead one left, once.
 */
describe('the usage journal of a gateway process killed with SIGKILL', () => {
  const gateway = killedGateway(SECRET, 'journal');
  const start = () => gateway.start();
  const journalDir = () => join(gateway.dataDir, 'usage-journal');
  const usage = async (member: string) =>
    (
      await query<{ requests: number; cost: string }>(
        gateway.database.url,
        `SELECT coalesce(sum(requests), 0)::int AS requests, coalesce(sum(cost_micro_cents), 0)::text AS cost
           FROM usage WHERE member_id = $1`,
        [member],
      )
    )[0];
  const spend = async (member: string) =>
    (
      await query<{ spent: string; held: string }>(
        gateway.database.url,
        'SELECT spent_micro_cents::text AS spent, held_micro_cents::text AS held FROM member_spend WHERE member_id = $1',
        [member],
      )
    )[0];

  it('calls answered just before the kill are billed, and their holds given back, when the node starts again', async () => {
    const doomed = await start();
    const account = await inferenceAccount(doomed.url, 'journal@example.com');
    await setMemberBudget(doomed.url, account, account.sa, 5);
    const call = () =>
      fetch(`${doomed.url}/inference/openai/v1/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${account.key}` },
        body: JSON.stringify({ model: 'small', max_tokens: 100, messages: [{ role: 'user', content: 'x' }] }),
      }).then(async (res) => ({ status: res.status, body: await res.text() }));
    // The node's usage batch waits until it is dead.
    const release = await gateway.holdWrites('usage');
    const answers = await Promise.all(Array.from({ length: CALLS }, call));
    doomed.child.kill('SIGKILL');
    await doomed.exited;
    await release();
    expect(answers.map((answer) => answer.status)).toEqual(Array(CALLS).fill(200));

    // The kill came before the batch: the database lacks calls that were answered, the journal has them all.
    const before = await usage(account.sa);
    expect(before.requests).toBe(0);
    expect(BigInt((await spend(account.sa)).held)).toBeGreaterThan(0n);
    // One journal, the dead process's, in one or more segments (a batch that began before the kill cut it).
    const journals = readdirSync(journalDir());
    expect(new Set(journals.map((name) => name.split('.').slice(0, 2).join('.'))).size).toBe(1);
    const lines = journals.flatMap((name) =>
      readFileSync(join(journalDir(), name), 'utf8').trim().split('\n').filter(Boolean),
    );
    expect(lines.length).toBeGreaterThanOrEqual(CALLS - before.requests);

    const restarted = await start();
    const after = await usage(account.sa);
    expect(after.requests).toBe(CALLS);
    // $1 / $2 per million: 10 input and 10 output tokens cost 3,000 micro-cents a call.
    expect(after.cost).toBe(String(CALLS * 3_000));
    expect(await spend(account.sa)).toEqual({ spent: String(CALLS * 3_000), held: '0' });
    expect(journals.filter((name) => existsSync(join(journalDir(), name)))).toEqual([]);
    expect(restarted.output()).toContain('usage records that process');

    // A clean stop and another start write nothing twice.
    restarted.child.kill('SIGTERM');
    expect(await restarted.exited).toBe(0);
    await start();
    expect(await usage(account.sa)).toEqual(after);
  });

  it('a journal whose first records its batches had written is written from the next record on, exactly once', async () => {
    const account = await inferenceAccount(gateway.node!.url, 'journal-mark@example.com');
    gateway.node!.child.kill('SIGTERM');
    await gateway.node!.exited;
    // A journal as a killed process leaves it between a batch's commit and the journal starting over: records 1-5,
    // the first three already written (its `usage_journal` mark says 3).
    const nodeId = 'node_00000000deadbeef';
    const journal = new UsageJournal(journalDir(), nodeId, (error) => {
      throw error;
    });
    const at = Date.now();
    for (let i = 0; i < 5; i++)
      journal.append({
        usage: {
          workspaceId: account.org,
          memberId: account.sa,
          keyId: null,
          model: 'up/small',
          inputTokens: 10,
          outputTokens: 10,
          costMicroCents: 3_000n,
        },
        held: 0n,
        workspaceHeld: 0n,
        keyHeld: 0n,
        at,
        requests: 1,
      });
    journal.keep();
    const dead = deadProcessId();
    const [file] = readdirSync(journalDir()).filter((name) => name.startsWith(nodeId));
    renameSync(join(journalDir(), file), join(journalDir(), `${nodeId}.${dead}.jsonl`));
    await query(gateway.database.url, `INSERT INTO usage_journal VALUES ($1, 3, now())`, [nodeId]);

    await start();
    expect(await usage(account.sa)).toEqual({ requests: 2, cost: '6000' });
    expect(
      await query(gateway.database.url, 'SELECT 1 FROM usage_journal WHERE node_id = $1', [nodeId]),
    ).toEqual([]);
  });

  it('a journal that cannot be written (its folder is a file) does not stop calls or their usage; it is said once', async () => {
    gateway.node!.child.kill('SIGTERM');
    await gateway.node!.exited;
    const brokenDir = mkdtempSync(join(tmpdir(), 'outpost-journal-broken-'));
    writeFileSync(join(brokenDir, 'usage-journal'), 'not a folder');
    const broken = await gateway.start(brokenDir);
    const account = await inferenceAccount(broken.url, 'journal-broken@example.com');
    for (let i = 0; i < 5; i++) {
      const res = await fetch(`${broken.url}/inference/openai/v1/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${account.key}` },
        body: JSON.stringify({ model: 'small', max_tokens: 100, messages: [{ role: 'user', content: 'x' }] }),
      });
      expect(res.status).toBe(200);
      // The first call's batch written (its journal segment released) before the next call: the server lives on.
      for (let tries = 0; i === 0 && tries < 40 && (await usage(account.sa)).requests < 1; tries++)
        await new Promise((resolve) => setTimeout(resolve, 100));
    }
    for (let i = 0; i < 40 && (await usage(account.sa)).requests < 5; i++)
      await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await usage(account.sa)).toEqual({ requests: 5, cost: '15000' });
    expect(broken.output().match(/usage journal not written/g)).toHaveLength(1);
  });
});
