import { Client } from 'undici';
import { startGatewayServer } from '../../helpers/gateway-server';
import { ServerProcess, waitForRefusal } from '../../helpers/processes';
import { ScriptedModelServer } from '../../helpers/scripted-model-server';
import { createTestDatabase, query } from '../../helpers/test-database';

/**
 * Usage is written in batches; a server stopped with SIGTERM writes what it still holds, streams in flight included.
 * While it drains, a model call on a kept-alive connection is refused as Fastify refuses any other request then.
 */
describe('gateway usage survives SIGTERM', () => {
  let upstream: ScriptedModelServer;
  let database: { url: string; drop: () => Promise<void> };
  let server: ServerProcess;

  beforeAll(async () => {
    upstream = await ScriptedModelServer.start();
    database = await createTestDatabase();
    server = await startGatewayServer(upstream, database.url, 'sk-up', {
      OUTPOST_SECRET_KEY: 'gateway-stop-test-secret-0123456789',
      OUTPOST_SHUTDOWN_GRACE_MS: '10000',
    });
  });
  afterAll(async () => {
    server.child.kill('SIGKILL');
    await upstream.close();
    await database.drop();
  });

  it('every answered request, and a stream finishing during shutdown, is recorded and its hold released; a call sent on its connection after the stream is served and closes it', async () => {
    const json = { 'content-type': 'application/json', origin: server.url };
    const signup = await fetch(`${server.url}/console/api/auth/signup`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ email: 'stop@example.com', password: 'correct horse battery' }),
    });
    const cookie = signup.headers.get('set-cookie')!.split(';')[0];
    const asPerson = { ...json, cookie };
    const org = (
      (await (await fetch(`${server.url}/console/api/orgs`, { headers: asPerson })).json()) as Array<{
        id: string;
      }>
    )[0].id;
    const sa = (await (
      await fetch(`${server.url}/console/api/orgs/${org}/service-accounts`, {
        method: 'POST',
        headers: asPerson,
        body: JSON.stringify({ name: 'stop' }),
      })
    ).json()) as { id: string };
    const { key } = (await (
      await fetch(`${server.url}/console/api/orgs/${org}/service-accounts/${sa.id}/keys`, {
        method: 'POST',
        headers: asPerson,
        body: JSON.stringify({ name: 'k', permission: 'inference' }),
      })
    ).json()) as { key: string };
    const request = (stream: boolean) => ({
      path: '/inference/openai/v1/chat/completions',
      method: 'POST' as const,
      headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
      body: JSON.stringify({
        model: 'small',
        stream,
        max_tokens: 10,
        messages: [{ role: 'user', content: 'x' }],
      }),
    });
    const call = (stream: boolean) => {
      const { path, ...init } = request(stream);
      return fetch(`${server.url}${path}`, init);
    };

    // A stream that will still be running when SIGTERM comes, on a connection of its own that stays open.
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    upstream.script({ text: ['slow ', 'stream'], usage: { input: 7, output: 3 }, until: gate });
    const client = new Client(server.url);
    const streaming = await client.request(request(true));
    expect(streaming.statusCode).toBe(200);
    await upstream.waitForRequests(1);

    upstream.script(...Array.from({ length: 30 }, () => ({ text: 'ok', usage: { input: 10, output: 5 } })));
    const answers = await Promise.all(Array.from({ length: 30 }, () => call(false)));
    expect(answers.map((res) => res.status)).toEqual(Array(30).fill(200));
    server.child.kill('SIGTERM');
    await waitForRefusal(server.url);
    release();
    expect(await streaming.body.text()).toContain('stream');
    // The stream's connection is still open; a model call sent on it now is served (a balancer would not replay
    // it elsewhere) and the connection closes after it, so a busy client cannot hold the stop open.
    upstream.script({ text: 'late', usage: { input: 1000, output: 1000 } });
    const late = await client.request(request(false));
    expect(late.statusCode).toBe(200);
    expect(late.headers.connection).toBe('close');
    await late.body.text();
    await client.close();
    expect(await server.exited).toBe(0);

    const rows = await query(
      database.url,
      `SELECT sum(requests)::int AS n, sum(cost_micro_cents)::text AS cost FROM usage WHERE member_id = $1`,
      [sa.id],
    );
    // 30 x (10 x 100 + 5 x 200) + (7 x 100 + 3 x 200) + the late call's 1000 x 100 + 1000 x 200 micro-cents
    expect(rows[0]).toEqual({ n: 32, cost: String(30 * 2000 + 1300 + 300_000) });
    const spend = await query(
      database.url,
      'SELECT spent_micro_cents::text AS spent, held_micro_cents::text AS held FROM member_spend WHERE member_id = $1',
      [sa.id],
    );
    expect(spend[0]).toEqual({ spent: String(30 * 2000 + 1300 + 300_000), held: '0' });
  });
});
