import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  freePort,
  ServerProcess,
  startServer,
  stopEmbeddedServerOf,
  waitForHealth,
} from '../../helpers/processes';
import { ScriptedModelServer } from '../../helpers/scripted-model-server';
import { openSse } from '../../helpers/sse';
import { basic, TestApp } from '../../helpers/test-app';
import {
  api,
  EventLog,
  outline,
  pollUntil,
  scriptedProject,
  startScripted,
  stopScripted,
} from '../../helpers/prompt';

type Data = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

describe('session.prompt on the embedded default (a PostgreSQL of the data folder, no DATABASE_URL)', () => {
  let t: TestApp;
  let server: ScriptedModelServer;

  beforeAll(async () => ({ t, server } = await startScripted({ embedded: true })));
  afterAll(() => stopScripted({ t, server }));

  it('runs a step, records usage and outcome, and deletes the session afterwards', async () => {
    const log = new EventLog(t);
    const a = api(t);
    const project = scriptedProject(server, { 'a.txt': 'alpha\n' });
    const sessionID = await a.createSession(project);
    server.script(
      { toolCalls: [{ name: 'read', input: { filePath: 'a.txt' } }], usage: { input: 10, output: 1 } },
      { text: 'alpha it is', usage: { input: 20, output: 2 } },
    );
    expect((await a.prompt(sessionID, { text: 'what is in a.txt?' })).status).toBe(200);
    expect(
      (await log.next('session.idle', (d: { sessionID?: string }) => d.sessionID === sessionID)).data,
    ).toEqual({ sessionID, outcome: 'succeeded' });
    const session = await a.session(sessionID);
    expect(session).toMatchObject({ outcome: 'succeeded', tokens: { input: 30, output: 3 } });
    expect(outline(await a.messages(sessionID))).toEqual([
      'user:what is in a.txt?',
      'assistant',
      'assistant',
    ]);
    expect((await t.http.delete(`/api/session/${sessionID}`).set('authorization', basic())).status).toBe(204);
  });

  it('a process killed mid-run: the next start adopts the database, takes the drain over when its lease passes, runs the queued input', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'outpost-embedded-restart-'));
    const project = scriptedProject(server);
    const env = {
      OUTPOST_PASSWORD: 'test-password',
      OUTPOST_DATA_DIR: dataDir,
      OUTPOST_CONFIG_DIR: join(dataDir, 'config'),
      LOG_LEVEL: 'warn',
      OUTPOST_DRAIN_LEASE_MS: '2000',
    };
    const first = startServer({ ...env, PORT: String(await freePort()) });
    let second: ServerProcess | undefined;
    try {
      await waitForHealth(first);
      const created = await call(first.url, '/api/session', {
        location: { directory: project },
        model: { providerID: 'scripted', id: 'small' },
      });
      const sessionID = created.data.id as string;
      const stream = await openSse(`${first.url}/api/event`, { authorization: basic() });
      server.script({ text: ['half'], hold: true });
      await call(first.url, `/api/session/${sessionID}/prompt`, { text: 'first' });
      await stream.until((events) => events.some((e) => e.type === 'session.message.part.delta'));
      await call(first.url, `/api/session/${sessionID}/prompt`, { text: 'after', delivery: 'queue' });
      // Killed once the partial answer is stored (on a loaded machine the write can trail the streamed delta).
      await pollUntil('the partial answer to be stored', async () =>
        JSON.stringify((await call(first.url, `/api/session/${sessionID}/message`)).data).includes('"half"'),
      );
      stream.close();
      first.child.kill('SIGKILL');
      await first.exited;

      // The next process on the same data adopts its PostgreSQL, closes the drain and runs the queued input.
      server.script({ text: 'queued answer' });
      second = startServer({ ...env, PORT: String(await freePort()) });
      await waitForHealth(second);
      await pollUntil(
        'the queued input to run',
        async () => (await call(second!.url, `/api/session/${sessionID}`)).data.outcome === 'succeeded',
      );
      const messages = (await call(second.url, `/api/session/${sessionID}/message`)).data as Data[];
      expect(outline(messages)).toEqual(['user:first', 'assistant', 'user:after', 'assistant']);
      expect(messages[1]).toMatchObject({ error: { type: 'AbortedError' }, content: [{ text: 'half' }] });
      expect(messages[3].content[0].text).toBe('queued answer');
    } finally {
      first.child.kill('SIGKILL');
      second?.child.kill('SIGTERM');
      await second?.exited;
      await stopEmbeddedServerOf(dataDir);
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

/** A request with the test credentials; the JSON body of a 200, else an error. */
async function call(url: string, path: string, body?: unknown): Promise<Data> {
  const res = await fetch(`${url}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { authorization: basic(), 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (res.status !== 200) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as Data;
}
