import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { deadProcessId, killedGateway } from '../../helpers/killed-gateway';
import { inferenceAccount } from '../../helpers/remote-console';
import { query } from '../../helpers/test-database';

jest.setTimeout(120_000);

const SECRET = 'request-log-journal-test-secret-0123';
const CALLS = 20;

/**
 * The request log is written to the database in batches every 200 ms; a process killed with SIGKILL in between
 * lost the rows of the calls it had answered in that window. Each row is now journaled on the node's disk before
 * the caller has the answer's end, and the next process on the same data directory writes what the dead one left,
 * each row once.
 */
describe('the request log journal of a gateway process killed with SIGKILL', () => {
  const gateway = killedGateway(SECRET, 'request-log-journal');
  const start = () => gateway.start();
  const rows = (member: string) =>
    query<{ id: string; request_id: string; status: number; cost: string }>(
      gateway.database.url,
      `SELECT id, request_id, status, cost_micro_cents::text AS cost FROM request_log WHERE member_id = $1
        ORDER BY id`,
      [member],
    );
  const journalDir = () => join(gateway.dataDir, 'request-log-journal');

  it('the rows of calls answered just before the kill are written once when the node starts again', async () => {
    const doomed = await start();
    const account = await inferenceAccount(doomed.url, 'request-log-journal@example.com');
    const call = (stream: boolean) =>
      fetch(`${doomed.url}/inference/openai/v1/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${account.key}` },
        body: JSON.stringify({
          model: 'small',
          max_tokens: 100,
          stream,
          messages: [{ role: 'user', content: 'x' }],
        }),
      }).then(async (res) => ({
        status: res.status,
        id: res.headers.get('x-request-id'),
        body: await res.text(),
      }));
    // Whole answers and streams: both journal the call's row before the answer's end. Its batch waits until the
    // node is dead.
    const release = await gateway.holdWrites('request_log');
    const answers = await Promise.all(Array.from({ length: CALLS }, (_, i) => call(i % 2 === 1)));
    doomed.child.kill('SIGKILL');
    await doomed.exited;
    await release();
    expect(answers.map((answer) => answer.status)).toEqual(Array(CALLS).fill(200));

    // The kill came before the batch: the database lacks the rows of calls that were answered, the journal has them.
    const before = await rows(account.sa);
    expect(before).toEqual([]);
    // One journal, the dead process's, in one or more segments (a batch that began before the kill cut it).
    const journals = readdirSync(journalDir());
    expect(new Set(journals.map((name) => name.split('.').slice(0, 2).join('.'))).size).toBe(1);
    const lines = journals.flatMap((name) =>
      readFileSync(join(journalDir(), name), 'utf8').trim().split('\n').filter(Boolean),
    );
    expect(lines.length).toBeGreaterThanOrEqual(CALLS - before.length);

    const restarted = await start();
    const after = await rows(account.sa);
    expect(after.map((row) => row.request_id).sort()).toEqual(answers.map((answer) => answer.id).sort());
    expect(new Set(after.map((row) => row.id)).size).toBe(CALLS);
    expect(after.every((row) => row.status === 200 && row.cost === '3000')).toBe(true);
    expect(journals.filter((name) => existsSync(join(journalDir(), name)))).toEqual([]);
    // Every row came from the journal (the dead process's batch never reached the database).
    expect(restarted.output()).toContain(`wrote ${CALLS} request log rows that process`);

    // A clean stop and another start write nothing twice, and leave no journal.
    restarted.child.kill('SIGTERM');
    expect(await restarted.exited).toBe(0);
    expect(readdirSync(journalDir())).toEqual([]);
    await start();
    expect(await rows(account.sa)).toEqual(after);
  });

  it('a journal whose first rows its batch had written is written again without a row twice', async () => {
    const account = await inferenceAccount(gateway.node!.url, 'request-log-journal-mark@example.com');
    gateway.node!.child.kill('SIGTERM');
    await gateway.node!.exited;
    // A journal as a killed process leaves it between a batch's commit and the journal starting over: five rows,
    // the first three in the database already, and a last line cut short by the kill.
    const at = Date.now();
    const row = (i: number) => ({
      id: `rql_journal_test_${i}`,
      workspaceId: account.org,
      memberId: account.sa,
      keyId: null,
      requestId: `req-${i}`,
      route: '/inference/openai/v1/chat/completions',
      model: 'small',
      servedBy: 'up/small',
      status: 200,
      outcome: 'answered',
      inputTokens: 10,
      outputTokens: 10,
      costMicroCents: '3000',
      durationMs: 5,
      ttfbMs: 4,
      createdAt: new Date(at + i).toISOString(),
    });
    const journal = [1, 2, 3, 4, 5].map((i) => JSON.stringify(row(i)));
    await query(
      gateway.database.url,
      `INSERT INTO request_log (id, workspace_id, member_id, key_id, request_id, route, model, served_by, status,
                                outcome, input_tokens, output_tokens, cost_micro_cents, duration_ms, ttfb_ms,
                                created_at)
         SELECT id, "workspaceId", "memberId", "keyId", "requestId", route, model, "servedBy", status, outcome,
                "inputTokens", "outputTokens", "costMicroCents", "durationMs", "ttfbMs", "createdAt"
           FROM json_to_recordset($1::json) AS r(id varchar, "workspaceId" varchar, "memberId" varchar,
                "keyId" varchar, "requestId" varchar, route varchar, model varchar, "servedBy" varchar,
                status int, outcome varchar, "inputTokens" int, "outputTokens" int, "costMicroCents" bigint,
                "durationMs" int, "ttfbMs" int, "createdAt" timestamptz)`,
      [`[${journal.slice(0, 3).join(',')}]`],
    );
    const dead = deadProcessId();
    mkdirSync(journalDir(), { recursive: true });
    const file = join(journalDir(), `node_00000000deadbeef.${dead}.jsonl`);
    writeFileSync(file, `${journal.join('\n')}\n{"id":"rql_journal_te`);

    const restarted = await start();
    const written = await rows(account.sa);
    expect(written.map((row) => row.id)).toEqual([1, 2, 3, 4, 5].map((i) => `rql_journal_test_${i}`));
    expect(restarted.output()).toContain('wrote 2 request log rows that process node_00000000deadbeef');
    expect(existsSync(file)).toBe(false);
  });
});
