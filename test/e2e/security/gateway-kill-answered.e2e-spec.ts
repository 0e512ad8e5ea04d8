import { Pool } from 'undici';
import { startGatewayServer } from '../../helpers/gateway-server';
import { ServerProcess } from '../../helpers/processes';
import { inferenceAccount, setMemberBudget } from '../../helpers/remote-console';
import { ScriptedModelServer } from '../../helpers/scripted-model-server';
import { createTestDatabase, query } from '../../helpers/test-database';

const CALLS = 30;
const SEQUENTIAL = 6;

/**
 * A node killed right after answering, whose disk is then lost (a replaced container): every call under a budget
 * that it answered is in the request log and billed, because such an answer ends only once its row and its usage
 * are in the database. No process ever starts again on its data folder here: nothing is recovered from journals.
 */
describe('a gateway node killed right after it answered', () => {
  let upstream: ScriptedModelServer;
  let database: { url: string; drop: () => Promise<void> };
  let node: ServerProcess;

  beforeAll(async () => {
    upstream = await ScriptedModelServer.start();
    database = await createTestDatabase();
    node = await startGatewayServer(upstream, database.url, 'sk-up');
  });
  afterAll(async () => {
    node?.child.kill('SIGKILL');
    await upstream.close();
    await database.drop();
  });

  it('has every call under a budget that it answered, streamed or whole, logged and billed', async () => {
    const account = await inferenceAccount(node.url, 'answered@example.com');
    await setMemberBudget(node.url, account, account.sa, 100);
    upstream.script(
      ...Array.from({ length: CALLS }, (_, i) => ({ text: `answer ${i}`, usage: { input: 3, output: 2 } })),
    );
    const client = new Pool(node.url, { connections: CALLS });
    const call = async (stream: boolean) => {
      const res = await client.request({
        path: '/inference/openai/v1/chat/completions',
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${account.key}` },
        body: JSON.stringify({ model: 'small', stream, messages: [{ role: 'user', content: 'x' }] }),
      });
      await res.body.text();
      return res.statusCode;
    };
    const loggedNow = async () =>
      (
        await query<{ n: number }>(
          database.url,
          'SELECT count(*)::int AS n FROM request_log WHERE member_id = $1',
          [account.sa],
        )
      )[0].n;
    // One at a time: each call's row is in the database when its answer has ended (not a timed batch later).
    for (let i = 0; i < SEQUENTIAL; i++) {
      expect(await call(i % 2 === 0)).toBe(200);
      expect(await loggedNow()).toBe(i + 1);
    }
    // Then many at once, and the node is killed as soon as they are answered.
    const statuses = await Promise.all(
      Array.from({ length: CALLS - SEQUENTIAL }, (_, i) => call(i % 3 === 0)),
    );
    node.child.kill('SIGKILL');
    await node.exited;
    await client.destroy();
    expect(statuses).toEqual(Array(CALLS - SEQUENTIAL).fill(200));

    const [logged] = await query<{ n: number; output: number }>(
      database.url,
      `SELECT count(*)::int AS n, coalesce(sum(output_tokens), 0)::int AS output
         FROM request_log WHERE member_id = $1 AND status = 200`,
      [account.sa],
    );
    expect(logged).toEqual({ n: CALLS, output: CALLS * 2 });
    const [billed] = await query<{ requests: number; output: number }>(
      database.url,
      `SELECT coalesce(sum(requests), 0)::int AS requests, coalesce(sum(output_tokens), 0)::int AS output
         FROM usage WHERE member_id = $1`,
      [account.sa],
    );
    expect(billed).toEqual({ requests: CALLS, output: CALLS * 2 });
  });
});
