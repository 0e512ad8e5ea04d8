import { DrainRecovery } from '@/modules/prompt/drain-recovery';
import { DrainSignal, DrainSignals } from '@/modules/prompt/drain-signals';
import { ScriptedModelServer } from '../../helpers/scripted-model-server';
import { SseClient } from '../../helpers/sse';
import { instanceProcess, InstanceProcess } from '../../helpers/instance-process';
import { basic, createTestApp, TestApp } from '../../helpers/test-app';
import { createTestDatabase, query } from '../../helpers/test-database';
import { api, EventLog, outline, pollUntil, scriptedProject } from '../../helpers/prompt';

type Data = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** A promise the test resolves when it chooses (the scripted model finishes an answer then). */
function gate(): { opened: Promise<void>; open: () => void } {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

/** Resolves when `app` hears `signal` for the session from another process (over NOTIFY). */
function heard(app: TestApp, sessionID: string, signal: DrainSignal): Promise<void> {
  return new Promise((resolve) =>
    app.app.get(DrainSignals).onSignal((id, received) => {
      if (id === sessionID && received === signal) resolve();
    }),
  );
}

/** The session's `session_drain` row, read straight from the database (undefined when no drain holds it). */
async function drainRow(
  databaseUrl: string,
  sessionID: string,
): Promise<{ owner: string; leaseExpires: number } | undefined> {
  const [row] = await query<{ owner: string; lease_expires: string }>(
    databaseUrl,
    'SELECT owner, lease_expires FROM session_drain WHERE session_id = $1',
    [sessionID],
  );
  return row && { owner: row.owner, leaseExpires: Number(row.lease_expires) };
}

type Proc = InstanceProcess;

function eventsOf(stream: SseClient, sessionID: string, type: string): Data[] {
  return stream.events
    .filter((e) => e.type === type && (e.data as Data).sessionID === sessionID)
    .map((e) => e.data as Data);
}

describe('drains owned by one process among several on a database', () => {
  let server: ScriptedModelServer;

  beforeAll(async () => {
    server = await ScriptedModelServer.start();
  });

  afterAll(async () => {
    await server.close();
  });

  it("a second app starting on the database leaves the first one's running drain alone; it renews and finishes", async () => {
    const database = await createTestDatabase();
    const env = { OUTPOST_DRAIN_LEASE_MS: '3000' };
    let first: TestApp | undefined;
    let second: TestApp | undefined;
    try {
      first = await createTestApp({ databaseUrl: database.url, env });
      const a = api(first);
      const logA = new EventLog(first);
      const sessionID = await a.createSession(scriptedProject(server));
      const answer = gate();
      server.script({ text: ['still ', 'running'], until: answer.opened, usage: { input: 3, output: 2 } });
      expect((await a.prompt(sessionID, { text: 'first' })).status).toBe(200);
      await logA.next('session.message.part.delta', (d: Data) => d.sessionID === sessionID);
      const claimed = (await drainRow(database.url!, sessionID))!;

      second = await createTestApp({ databaseUrl: database.url, env });
      const b = api(second);
      const logB = new EventLog(second);
      // The second app's start-up closed nothing: the session still runs, its message is still open.
      const session = await b.session(sessionID);
      expect(session.outcome).toBeUndefined();
      expect(session.time.idle).toBeUndefined();
      const open = await b.messages(sessionID);
      expect(open[1].time.completed).toBeUndefined();
      expect(open[1].error).toBeUndefined();
      expect((await b.get('/api/session/active')).body.data).toEqual({});
      expect((await a.get('/api/session/active')).body.data).toEqual({ [sessionID]: { type: 'running' } });

      // Past the first lease: the owner renewed it (the second app, sweeping every third of a lease meanwhile,
      // would have taken an expired one over).
      await pollUntil('a renewal past the first lease', async () => {
        const row = (await drainRow(database.url!, sessionID))!;
        expect(row.owner).toBe(claimed.owner);
        return row.leaseExpires >= claimed.leaseExpires + 3_000;
      });
      await second.app.get(DrainRecovery).sweep();

      answer.open();
      const idle = await logA.next('session.idle', (d: Data) => d.sessionID === sessionID);
      expect(idle.data).toEqual({ sessionID, outcome: 'succeeded' });
      expect(logA.of(sessionID, ['session.execution.interrupted'])).toEqual([]);
      expect(logB.of(sessionID, ['session.execution.interrupted', 'session.idle'])).toEqual([]);
      const messages = await b.messages(sessionID);
      expect(outline(messages)).toEqual(['user:first', 'assistant']);
      expect(messages[1].error).toBeUndefined();
      expect(messages[1].content[0].text).toBe('still running');
      expect((await b.session(sessionID)).outcome).toBe('succeeded');
      expect(await drainRow(database.url!, sessionID)).toBeUndefined();
    } finally {
      await first?.close();
      await second?.close();
      await database.drop();
    }
  });

  it('two processes woken for one session at once: exactly one runs its drain', async () => {
    const database = await createTestDatabase();
    // Its own model server: whether the second answer is asked for depends on the race.
    const model = await ScriptedModelServer.start();
    const project = scriptedProject(model);
    let p: Proc | undefined;
    let q: Proc | undefined;
    try {
      // Started together, they share one secret key the way a fleet does (the database refuses a second one).
      const secret = { OUTPOST_SECRET_KEY: 'drain-owners-test-secret-0123456789abcdef' };
      [p, q] = await Promise.all([
        instanceProcess(database.url!, secret),
        instanceProcess(database.url!, secret),
      ]);
      const created = await p.call('/api/session', {
        location: { directory: project },
        model: { providerID: 'scripted', id: 'small' },
      });
      const sessionID = created.body.data.id as string;
      const answer = gate();
      model.script({ text: ['one'], until: answer.opened }, { text: 'two' });

      const [fromP, fromQ] = await Promise.all([
        p.call(`/api/session/${sessionID}/prompt`, { text: 'to p' }),
        q.call(`/api/session/${sessionID}/prompt`, { text: 'to q' }),
      ]);
      expect([fromP.status, fromQ.status]).toEqual([200, 200]);
      // A prompt answers once its wake has claimed the drain or found it claimed. A change made after both, seen
      // on each stream, means each stream has carried every event of the wakes.
      for (const [proc, title] of [
        [p, 'after p'],
        [q, 'after q'],
      ] as const) {
        expect((await proc.call(`/api/session/${sessionID}`, { title }, 'PATCH')).status).toBe(204);
        await proc.stream.until((events) =>
          events.some((e) => e.type === 'session.updated' && (e.data as Data).info?.title === title),
        );
      }
      const started = [p, q].map((proc) => eventsOf(proc.stream, sessionID, 'session.execution.started'));
      expect(started.map((events) => events.length).sort()).toEqual([0, 1]);
      const [winner, loser] = started[0].length === 1 ? [p, q] : [q, p];
      expect((await winner.call('/api/session/active')).body.data).toEqual({
        [sessionID]: { type: 'running' },
      });
      expect((await loser.call('/api/session/active')).body.data).toEqual({});

      answer.open();
      await winner.stream.until((events) =>
        events.some((e) => e.type === 'session.idle' && (e.data as Data).sessionID === sessionID),
      );
      expect(eventsOf(winner.stream, sessionID, 'session.idle')).toEqual([
        { sessionID, outcome: 'succeeded' },
      ]);
      expect(eventsOf(loser.stream, sessionID, 'session.execution.started')).toEqual([]);
      // Both inputs ran, in the one drain, and nothing was cut short.
      const messages = (await winner.call(`/api/session/${sessionID}/message?limit=100`)).body.data as Data[];
      const users = messages.filter((m) => m.type === 'user').map((m) => m.text as string);
      expect(users.sort()).toEqual(['to p', 'to q']);
      expect(messages.at(-1)!.type).toBe('assistant');
      for (const message of messages.filter((m) => m.type === 'assistant'))
        expect(message.error).toBeUndefined();
    } finally {
      p?.stream.close();
      q?.stream.close();
      p?.child.kill('SIGKILL');
      q?.child.kill('SIGKILL');
      await Promise.all([p?.exited, q?.exited]);
      await model.close();
      await database.drop();
    }
  });

  it('a process paused past its lease: another takes the drain over, and the paused one, resumed, writes nothing', async () => {
    const database = await createTestDatabase();
    const project = scriptedProject(server);
    const lease = { OUTPOST_DRAIN_LEASE_MS: '3000' };
    let paused: Proc | undefined;
    let other: TestApp | undefined;
    try {
      paused = await instanceProcess(database.url!, lease);
      other = await createTestApp({ databaseUrl: database.url, env: lease });
      const b = api(other);
      const logB = new EventLog(other);
      const created = await paused.call('/api/session', {
        location: { directory: project },
        model: { providerID: 'scripted', id: 'small' },
      });
      const sessionID = created.body.data.id as string;
      const answer = gate();
      server.script(
        { text: ['partial answer'], until: answer.opened, usage: { input: 5, output: 5 } },
        { text: 'the queued one', usage: { input: 1, output: 1 } },
      );
      expect((await paused.call(`/api/session/${sessionID}/prompt`, { text: 'first' })).status).toBe(200);
      await paused.stream.until((events) =>
        events.some(
          (e) => e.type === 'session.message.part.delta' && (e.data as Data).sessionID === sessionID,
        ),
      );
      const queued = { text: 'after', delivery: 'queue' };
      expect((await paused.call(`/api/session/${sessionID}/prompt`, queued)).status).toBe(200);
      const owner = (await drainRow(database.url!, sessionID))!.owner;

      paused.child.kill('SIGSTOP');
      // The lease passes without renewal: the other app closes the drain and runs the queued input.
      const closed = await logB.next('session.idle', (d: Data) => d.sessionID === sessionID);
      expect(closed.data.outcome).toBe('interrupted');
      const ran = await logB.next(
        'session.idle',
        (d: Data) => d.sessionID === sessionID && d.outcome === 'succeeded',
      );
      expect(ran.data.outcome).toBe('succeeded');
      const before = { session: await b.session(sessionID), messages: await b.messages(sessionID) };
      expect(outline(before.messages)).toEqual(['user:first', 'assistant', 'user:after', 'assistant']);
      expect(before.messages[1]).toMatchObject({
        error: { type: 'AbortedError', message: 'Interrupted: the server stopped' },
        time: { completed: expect.any(Number) },
      });
      expect(before.messages[3].content[0].text).toBe('the queued one');
      const eventsBefore = paused.stream.events.length;

      // The paused process resumes with its answer complete: it finds its claim gone and stops.
      answer.open();
      await server.answeredAll();
      paused.child.kill('SIGCONT');
      await pollUntil('the resumed process to drop the drain', async () => {
        const active = await paused!.call('/api/session/active');
        return Object.keys(active.body.data as Data).length === 0;
      });
      expect(await b.session(sessionID)).toEqual(before.session);
      expect(await b.messages(sessionID)).toEqual(before.messages);
      expect(await drainRow(database.url!, sessionID)).toBeUndefined();
      const after = paused.stream.events.slice(eventsBefore);
      expect(
        after.filter(
          (e) =>
            (e.data as Data).sessionID === sessionID &&
            ['session.execution.succeeded', 'session.execution.interrupted', 'session.idle'].includes(e.type),
        ),
      ).toEqual([]);
      expect(paused.output()).toContain(`The drain of ${sessionID} lost its claim`);
      expect(owner).not.toBe('');
    } finally {
      paused?.child.kill('SIGCONT');
      paused?.stream.close();
      paused?.child.kill('SIGKILL');
      await paused?.exited;
      await other?.close();
      await database.drop();
    }
  });

  describe('asked through the other process', () => {
    let database: Awaited<ReturnType<typeof createTestDatabase>>;
    let first: TestApp;
    let second: TestApp;

    beforeAll(async () => {
      database = await createTestDatabase();
      first = await createTestApp({ databaseUrl: database.url });
      second = await createTestApp({ databaseUrl: database.url });
    });

    afterAll(async () => {
      await first.close();
      await second.close();
      await database.drop();
    });

    /** A session whose run in the first process streams until `answer` opens; helpers for both processes. */
    async function longRunInFirst() {
      const a = api(first);
      const b = api(second);
      const logA = new EventLog(first);
      const sessionID = await a.createSession(scriptedProject(server));
      const answer = gate();
      server.script({ text: ['never ', 'finished'], until: answer.opened });
      expect((await a.prompt(sessionID, { text: 'long one' })).status).toBe(200);
      await logA.next('session.message.part.delta', (d: Data) => d.sessionID === sessionID);
      return { a, b, logA, sessionID, answer };
    }

    it('an interrupt stops the drain the first process runs, and answers once it has ended', async () => {
      const { b, logA, sessionID, answer } = await longRunInFirst();

      expect((await b.post(`/api/session/${sessionID}/interrupt`)).status).toBe(204);
      // Answered after the drain ended in the first process: its end is written and published.
      expect(await drainRow(database.url!, sessionID)).toBeUndefined();
      expect(
        logA.of(sessionID, ['session.execution.interrupted', 'session.idle']).map((e) => e.data),
      ).toEqual([
        { sessionID, reason: 'user' },
        { sessionID, outcome: 'interrupted' },
      ]);
      const session = await b.session(sessionID);
      expect(session.outcome).toBe('interrupted');
      const messages = await b.messages(sessionID);
      expect(outline(messages)).toEqual(['user:long one', 'assistant']);
      expect(messages[1].time.completed).toEqual(expect.any(Number));
      answer.open();
    });

    it('a move waits for the next step boundary of the drain the first process runs', async () => {
      const a = api(first);
      const b = api(second);
      const logA = new EventLog(first);
      const project = scriptedProject(server);
      const target = scriptedProject(server, { 'there.txt': 'in the new place' });
      const sessionID = await a.createSession(project);
      const toolCall = gate();
      const base = server.requests.length;
      server.script(
        { toolCalls: [{ name: 'list', input: {} }], until: toolCall.opened },
        { toolCalls: [{ name: 'read', input: { filePath: 'there.txt' } }] },
        { text: 'moved' },
      );
      expect((await a.prompt(sessionID, { text: 'go' })).status).toBe(200);
      await server.waitForRequests(base + 1);

      const woken = heard(first, sessionID, 'wake');
      expect((await b.post(`/api/session/${sessionID}/move`, { directory: target })).status).toBe(204);
      // Not yet: the step under way runs where it started.
      expect((await b.session(sessionID)).location.directory).toBe(project);
      await woken;
      toolCall.open();
      await logA.next('session.idle', (d: Data) => d.sessionID === sessionID);

      const messages = await b.messages(sessionID);
      expect(messages.map((m) => m.type)).toEqual([
        'user',
        'assistant',
        'location-switched',
        'assistant',
        'assistant',
      ]);
      expect(messages[3].content[0].state.content[0].text).toContain('in the new place');
      expect((await b.session(sessionID)).location.directory).toBe(target);
    });

    it('deleting the session stops the drain the first process runs', async () => {
      const { a, b, logA, sessionID, answer } = await longRunInFirst();

      const deleted = await second.http.delete(`/api/session/${sessionID}`).set('authorization', basic());
      expect(deleted.status).toBe(204);
      const interrupted = await logA.next(
        'session.execution.interrupted',
        (d: Data) => d.sessionID === sessionID,
      );
      expect(interrupted.data.reason).toBe('deleted');
      await pollUntil('the first process to drop the drain', async () => {
        const active = await a.get('/api/session/active');
        return Object.keys(active.body.data as Data).length === 0;
      });
      expect(logA.of(sessionID, ['session.execution.failed', 'session.idle'])).toEqual([]);
      expect(await drainRow(database.url!, sessionID)).toBeUndefined();
      expect((await b.get(`/api/session/${sessionID}`)).status).toBe(404);
      answer.open();
    });

    it('an interrupt of a session that runs nowhere is a no-op 204', async () => {
      const b = api(second);
      const sessionID = await b.createSession(scriptedProject(server));
      expect((await b.post(`/api/session/${sessionID}/interrupt`)).status).toBe(204);
      expect((await b.session(sessionID)).outcome).toBeUndefined();
    });

    it('a steering prompt reaches the drain the first process runs at its next step boundary', async () => {
      const a = api(first);
      const b = api(second);
      const logA = new EventLog(first);
      const sessionID = await a.createSession(scriptedProject(server, { 'a.txt': 'alpha\n' }));
      const toolCall = gate();
      const base = server.requests.length;
      server.script(
        { toolCalls: [{ name: 'read', input: { filePath: 'a.txt' } }], until: toolCall.opened },
        { text: 'read it, and saw the steer' },
      );
      expect((await a.prompt(sessionID, { text: 'read a' })).status).toBe(200);
      await server.waitForRequests(base + 1);

      // Admitted by the second process while the first one's model step is under way.
      const woken = heard(first, sessionID, 'wake');
      expect((await b.prompt(sessionID, { text: 'also this' })).status).toBe(200);
      expect(await b.get('/api/session/active').then((res) => res.body.data)).toEqual({});
      // The signal travels by NOTIFY on the first process's own connection: the step ends once it arrived.
      await woken;
      toolCall.open();
      const idle = await logA.next('session.idle', (d: Data) => d.sessionID === sessionID);
      expect(idle.data.outcome).toBe('succeeded');

      // One run: the steer went into its second model request, not into a run of its own afterwards.
      expect(logA.of(sessionID, ['session.execution.started'])).toHaveLength(1);
      expect(server.requests.length).toBe(base + 2);
      const secondRequest = JSON.stringify(server.requests[base + 1].body);
      expect(secondRequest).toContain('also this');
      expect(outline(await b.messages(sessionID))).toEqual([
        'user:read a',
        'assistant',
        'user:also this',
        'assistant',
      ]);
    });
  });
});
