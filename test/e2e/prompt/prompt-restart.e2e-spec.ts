import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { freePort, startServer, waitForHealth } from '../../helpers/processes';
import { ScriptedModelServer } from '../../helpers/scripted-model-server';
import { openSse } from '../../helpers/sse';
import { basic, createTestApp } from '../../helpers/test-app';
import { createTestDatabase, query } from '../../helpers/test-database';
import { api, EventLog, outline, scriptedProject } from '../../helpers/prompt';

type Data = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** When the session's running drain stops holding it unless renewed (epoch ms), read from the database. */
async function drainLease(databaseUrl: string, sessionID: string): Promise<number> {
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ lease_expires: string }>(
      'SELECT lease_expires FROM session_drain WHERE session_id = $1',
      [sessionID],
    );
    return Number(rows[0].lease_expires);
  } finally {
    await client.end();
  }
}

describe('drains across restarts: nothing admitted is lost', () => {
  let server: ScriptedModelServer;

  beforeAll(async () => {
    server = await ScriptedModelServer.start();
  });

  afterAll(async () => {
    await server.close();
  });

  it('a process killed mid-run: another one closes the drain as interrupted once its lease has passed, not before, then runs the waiting input', async () => {
    const database = await createTestDatabase();
    const project = scriptedProject(server);
    const dataDir = mkdtempSync(join(tmpdir(), 'outpost-restart-'));
    const env = {
      DATABASE_URL: database.url,
      OUTPOST_PASSWORD: 'test-password',
      OUTPOST_DATA_DIR: dataDir,
      OUTPOST_CONFIG_DIR: join(dataDir, 'config'),
      LOG_LEVEL: 'warn',
      // Long enough that the second process surely starts within it, whatever the machine's load.
      OUTPOST_DRAIN_LEASE_MS: '60000',
    };
    const first = startServer({ ...env, PORT: String(await freePort()) });
    try {
      await waitForHealth(first);
      const call = (path: string, body?: unknown) =>
        fetch(`${first.url}${path}`, {
          method: body === undefined ? 'GET' : 'POST',
          headers: { authorization: basic(), 'content-type': 'application/json' },
          body: body === undefined ? undefined : JSON.stringify(body),
        }).then(async (res) => ({ status: res.status, body: (await res.json()) as Data }));
      const created = await call('/api/session', {
        location: { directory: project },
        model: { providerID: 'scripted', id: 'small' },
      });
      const sessionID = created.body.data.id as string;
      const stream = await openSse(`${first.url}/api/event`, { authorization: basic() });
      server.script({ text: ['working on it'], hold: true });
      expect((await call(`/api/session/${sessionID}/prompt`, { text: 'first' })).status).toBe(200);
      await stream.until((events) => events.some((e) => e.type === 'session.message.part.delta'));
      const queued = await call(`/api/session/${sessionID}/prompt`, { text: 'after', delivery: 'queue' });
      expect(queued.status).toBe(200);
      stream.close();
      const killedAt = Date.now();
      first.child.kill('SIGKILL');
      await first.exited;
      const lease = await drainLease(database.url!, sessionID);

      // A short lease here: this process looks for expired drains every half second.
      const second = await createTestApp({
        databaseUrl: database.url,
        env: { OUTPOST_DRAIN_LEASE_MS: '1500' },
      });
      try {
        const a = api(second);
        const log = new EventLog(second);
        // Started within the dead process's lease: the drain is left as it was.
        let session = await a.session(sessionID);
        expect(session.outcome).toBeUndefined();
        expect(session.time.idle).toBeUndefined();
        expect((await a.messages(sessionID))[1].time.completed).toBeUndefined();
        expect(await drainLease(database.url!, sessionID)).toBe(lease);

        // Once the lease has passed (leases are on the database's clock: the rest of its minute is taken off
        // here), this process's next sweep closes the drain and the queued input runs at once, without another
        // prompt.
        server.script({ text: 'queued answer' });
        await query(
          database.url!,
          `UPDATE session_drain SET lease_expires = (extract(epoch from clock_timestamp()) * 1000)::bigint - 1
            WHERE session_id = $1`,
          [sessionID],
        );
        const closed = await log.next('session.idle', (d: Data) => d.sessionID === sessionID);
        expect(closed.data.outcome).toBe('interrupted');
        expect(log.of(sessionID, ['session.execution.interrupted'])[0].data).toEqual({
          sessionID,
          reason: 'shutdown',
        });
        await log.next('session.idle', (d: Data) => d.sessionID === sessionID && d.outcome === 'succeeded');
        session = await a.session(sessionID);
        expect(session.outcome).toBe('succeeded');
        expect((await a.get('/api/session/active')).body.data).toEqual({});
        const messages = await a.messages(sessionID);
        expect(outline(messages)).toEqual(['user:first', 'assistant', 'user:after', 'assistant']);
        expect(messages[1]).toMatchObject({
          error: { type: 'AbortedError' },
          time: { completed: expect.any(Number) },
        });
        expect(messages[1].time.completed).toBeGreaterThanOrEqual(killedAt);
        expect(messages[1].content[0].text).toBe('working on it');
        expect(messages[3].content[0].text).toBe('queued answer');
      } finally {
        await second.close();
      }
    } finally {
      first.child.kill('SIGKILL');
      await database.drop();
    }
  });

  it('a server that shuts down mid-run records the interruption; a second one on the database runs what waits', async () => {
    const database = await createTestDatabase();
    const project = scriptedProject(server);
    try {
      const first = await createTestApp({ databaseUrl: database.url });
      const log = new EventLog(first);
      const a = api(first);
      const sessionID = await a.createSession(project);
      server.script({ text: ['partial'], hold: true });
      await a.prompt(sessionID, { text: 'first' });
      await log.next('session.message.part.delta', (d: Data) => d.sessionID === sessionID);
      await a.prompt(sessionID, { text: 'later', delivery: 'queue' });
      await first.close();
      expect(log.of(sessionID, ['session.execution.interrupted'])[0].data).toEqual({
        sessionID,
        reason: 'shutdown',
      });

      const second = await createTestApp({ databaseUrl: database.url });
      try {
        const b = api(second);
        expect((await b.session(sessionID)).outcome).toBe('interrupted');
        const messages = await b.messages(sessionID);
        expect(messages[1]).toMatchObject({
          error: { type: 'AbortedError' },
          content: [{ text: 'partial' }],
        });
        const log2 = new EventLog(second);
        server.script({ text: 'done' }, { text: 'done too' });
        await b.prompt(sessionID, { text: 'wake', delivery: 'queue' });
        await log2.next('session.idle', (d: Data) => d.sessionID === sessionID);
        const after = await b.messages(sessionID);
        expect(outline(after)).toEqual([
          'user:first',
          'assistant',
          'user:later',
          'assistant',
          'user:wake',
          'assistant',
        ]);
        expect(after[3].content[0].text).toBe('done');
      } finally {
        await second.close();
      }
    } finally {
      await database.drop();
    }
  });
});
