import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, startServer, waitForHealth } from '../../helpers/processes';
import { ScriptedModelServer } from '../../helpers/scripted-model-server';
import { openSse } from '../../helpers/sse';
import { basic, createTestApp } from '../../helpers/test-app';
import { createTestDatabase, readInfo } from '../../helpers/test-database';
import { api, EventLog, outline, scriptedProject } from './helpers';

type Data = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const onPostgres = readInfo().mode === 'postgres';

describe('drains across restarts: nothing admitted is lost', () => {
  let server: ScriptedModelServer;

  beforeAll(async () => {
    server = await ScriptedModelServer.start();
  });

  afterAll(async () => {
    await server.close();
  });

  (onPostgres ? it : it.skip)(
    'a process killed mid-run: the next one closes the drain as interrupted and runs the waiting input on wake',
    async () => {
      const database = await createTestDatabase();
      const project = scriptedProject(server);
      const dataDir = mkdtempSync(join(tmpdir(), 'outpost-restart-'));
      const env = {
        DATABASE_URL: database.url,
        OUTPOST_PASSWORD: 'test-password',
        OUTPOST_DATA_DIR: dataDir,
        OUTPOST_CONFIG_DIR: join(dataDir, 'config'),
        LOG_LEVEL: 'warn',
      };
      const first = startServer({ ...env, PORT: String(await freePort()) });
      try {
        await waitForHealth(first.url);
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
        first.child.kill('SIGKILL');
        await first.exited;

        const second = await createTestApp({ databaseUrl: database.url });
        try {
          const a = api(second);
          const session = await a.session(sessionID);
          expect(session.outcome).toBe('interrupted');
          expect(session.time.idle).toEqual(expect.any(Number));
          expect((await a.get('/api/session/active')).body.data).toEqual({});
          let messages = await a.messages(sessionID);
          expect(messages.map((m) => m.type)).toEqual(['user', 'assistant']);
          expect(messages[1]).toMatchObject({
            error: { type: 'AbortedError' },
            time: { completed: expect.any(Number) },
          });

          // The queued prompt waited in the inbox; the next prompt wakes the drain and both run, in order.
          const log = new EventLog(second);
          server.script({ text: 'steered answer' }, { text: 'queued answer' });
          expect((await a.prompt(sessionID, { text: 'again' })).status).toBe(200);
          await log.next('session.idle', (d: Data) => d.sessionID === sessionID);
          messages = await a.messages(sessionID);
          expect(outline(messages)).toEqual([
            'user:first',
            'assistant',
            'user:again',
            'assistant',
            'user:after',
            'assistant',
          ]);
          expect(messages[1].content[0].text).toBe('working on it');
        } finally {
          await second.close();
        }
      } finally {
        first.child.kill('SIGKILL');
        await database.drop();
      }
    },
  );

  (onPostgres ? it : it.skip)(
    'a server that shuts down mid-run records the interruption; a second one on the database runs what waits',
    async () => {
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
    },
  );
});
