import { writeFileSync } from 'node:fs';
import { Pool } from 'undici';
import { startGatewayServer } from '../../helpers/gateway-server';
import { ServerProcess } from '../../helpers/processes';
import { inferenceAccount, setMemberBudget } from '../../helpers/remote-console';
import { ScriptedModelServer } from '../../helpers/scripted-model-server';
import { createTestDatabase, query } from '../../helpers/test-database';

const SECRET = 'gateway-kill-test-secret-0123456789';
/** `npm run bench:kill` raises it to 100 and writes the figures to bench/results/kill.json. */
const STREAMS = Number(process.env.OUTPOST_KILL_STREAMS ?? 40);
/** Each stream sends these deltas, then waits: 3 deltas of 40 characters, 30 output tokens as the gateway counts. */
const DELTAS = ['a'.repeat(40), 'b'.repeat(40), 'c'.repeat(40)];

async function waitFor<T>(
  read: () => Promise<T>,
  done: (value: T) => boolean,
  timeoutMs: number,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/**
 * A gateway process killed with SIGKILL mid-stream cannot settle anything. Its holds belong to its lease, which a
 * live process finds expired and releases within 30 s; what its streams had produced was billed as they ran.
 */
describe('budget holds of a killed gateway process', () => {
  let upstream: ScriptedModelServer;
  let database: { url: string; drop: () => Promise<void> };
  let doomed: ServerProcess;
  let survivor: ServerProcess;

  beforeAll(async () => {
    upstream = await ScriptedModelServer.start();
    database = await createTestDatabase();
    [doomed, survivor] = await Promise.all([
      startGatewayServer(upstream, database.url, 'sk-up', { OUTPOST_SECRET_KEY: SECRET }),
      startGatewayServer(upstream, database.url, 'sk-up', { OUTPOST_SECRET_KEY: SECRET }),
    ]);
  });
  afterAll(async () => {
    doomed?.child.kill('SIGKILL');
    survivor?.child.kill('SIGKILL');
    await upstream.close();
    await database.drop();
  });

  it('are released by a live process within 30 s, and what the streams produced stays billed', async () => {
    const account = await inferenceAccount(doomed.url, 'kill@example.com');
    // Worst case per stream: 1000 output tokens x 200 micro-cents plus the input: about $0.002 ($0.0025 a stream).
    await setMemberBudget(doomed.url, account, account.sa, Math.ceil(STREAMS * 0.25) / 100);
    const spend = async () =>
      (
        await query<{ spent: string; held: string }>(
          database.url,
          'SELECT spent_micro_cents::text AS spent, held_micro_cents::text AS held FROM member_spend WHERE member_id = $1',
          [account.sa],
        )
      )[0] ?? { spent: '0', held: '0' };

    const never = new Promise<void>(() => undefined);
    upstream.script(...Array.from({ length: STREAMS }, () => ({ text: DELTAS, until: never })));
    const client = new Pool(doomed.url, { connections: STREAMS });
    const body = JSON.stringify({
      model: 'small',
      stream: true,
      max_tokens: 1000,
      messages: [{ role: 'user', content: 'x' }],
    });
    const streams = await Promise.all(
      Array.from({ length: STREAMS }, () =>
        client.request({
          path: '/inference/openai/v1/chat/completions',
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${account.key}` },
          body,
        }),
      ),
    );
    expect(streams.map((res) => res.statusCode)).toEqual(Array(STREAMS).fill(200));
    // Each client reads its stream up to the last delta the provider sent.
    let received = 0;
    await Promise.all(
      streams.map(
        (res) =>
          new Promise<void>((resolve) => {
            let text = '';
            res.body.on('data', (chunk: Buffer) => {
              text += chunk.toString();
              if (text.includes(DELTAS[2])) {
                received++;
                resolve();
              }
            });
            res.body.on('error', () => resolve());
          }),
      ),
    );
    expect(received).toBe(STREAMS);
    // What the streams produced is recorded while they run (every second, written in the next batch): all of it
    // before the kill.
    const billed = await waitFor(spend, (row) => BigInt(row.spent) > 0n, 5_000);
    const outputBilled = async () =>
      (
        await query<{ output: number | null }>(
          database.url,
          'SELECT sum(output_tokens)::int AS output FROM usage WHERE member_id = $1',
          [account.sa],
        )
      )[0].output;
    await waitFor(outputBilled, (output) => output === STREAMS * 30, 10_000);
    const beforeKill = await spend();
    expect(BigInt(beforeKill.held)).toBeGreaterThan(0n);
    expect(BigInt(billed.spent)).toBeGreaterThan(0n);

    doomed.child.kill('SIGKILL');
    await doomed.exited;
    client.destroy().catch(() => undefined);
    const started = Date.now();
    const after = await waitFor(spend, (row) => row.held === '0', 40_000);
    const releasedWithinMs = Date.now() - started;
    expect(after.held).toBe('0');
    expect(releasedWithinMs).toBeLessThan(30_000);

    // Billed: each stream's 120 characters (30 tokens x 200 micro-cents) and its input estimate, nothing lost.
    const [usage] = await query<{ output: number; requests: number; cost: string }>(
      database.url,
      `SELECT sum(output_tokens)::int AS output, sum(requests)::int AS requests, sum(cost_micro_cents)::text AS cost
         FROM usage WHERE member_id = $1`,
      [account.sa],
    );
    const figures = {
      date: new Date().toISOString(),
      streams: STREAMS,
      output_tokens_served: STREAMS * 30,
      held_before_kill_usd: Number(beforeKill.held) / 1e8,
      spent_before_kill_usd: Number(beforeKill.spent) / 1e8,
      held_after_usd: Number(after.held) / 1e8,
      released_within_ms: releasedWithinMs,
      output_tokens_billed: usage.output,
      spent_after_usd: Number(after.spent) / 1e8,
    };
    process.stdout.write(`kill: ${JSON.stringify(figures)}\n`);
    if (process.env.OUTPOST_KILL_RESULTS)
      writeFileSync(process.env.OUTPOST_KILL_RESULTS, JSON.stringify(figures, null, 2) + '\n');
    expect(usage.output).toBe(STREAMS * 30);
    expect(after.spent).toBe(usage.cost);
    // The live process that released the holds logged the cut streams, each with what it had billed.
    const logged = await query<{ outcome: string; status: number; n: number; output: number; cost: string }>(
      database.url,
      `SELECT outcome, status, count(*)::int AS n, sum(output_tokens)::int AS output,
              sum(cost_micro_cents)::text AS cost
         FROM request_log WHERE member_id = $1 GROUP BY outcome, status`,
      [account.sa],
    );
    expect(logged).toEqual([
      { outcome: 'cut', status: 200, n: STREAMS, output: STREAMS * 30, cost: usage.cost },
    ]);
    const left = await query(database.url, 'SELECT 1 FROM request_log_stream');
    expect(left).toEqual([]);

    // The member can call again through the live process: no money is stuck.
    upstream.script({ text: 'after', usage: { input: 1, output: 1 } });
    const res = await fetch(`${survivor.url}/inference/openai/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${account.key}` },
      body: JSON.stringify({ model: 'small', max_tokens: 10, messages: [{ role: 'user', content: 'x' }] }),
    });
    expect(res.status).toBe(200);
    expect(survivor.output()).toContain('released');
  });
});
