import { existsSync } from 'node:fs';
import { instanceProcess } from '../../helpers/instance-process';
import { pollUntil, scriptedProject } from '../../helpers/prompt';
import { ScriptedModelServer } from '../../helpers/scripted-model-server';
import { createTestDatabase, query } from '../../helpers/test-database';

type Data = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** Debian's libfaketime (package `faketime`, installed by .ci/run): the process's wall clock runs 60 s ahead. */
const FAKETIME_LIBRARY = '/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1';
const SIXTY_SECONDS_AHEAD = {
  LD_PRELOAD: FAKETIME_LIBRARY,
  FAKETIME: '+60s',
  FAKETIME_DONT_FAKE_MONOTONIC: '1',
};
const LEASE = { OUTPOST_DRAIN_LEASE_MS: '3000' };

describe('drain leases on the database clock', () => {
  let model: ScriptedModelServer;

  beforeAll(async () => {
    expect(existsSync(FAKETIME_LIBRARY)).toBe(true);
    model = await ScriptedModelServer.start();
  });
  afterAll(() => model.close());

  it('a process whose clock is 60 s ahead leaves a live drain of another process alone; the drain finishes where it runs', async () => {
    const database = await createTestDatabase();
    const running = await instanceProcess(database.url, LEASE);
    const ahead = await instanceProcess(database.url, { ...LEASE, ...SIXTY_SECONDS_AHEAD });
    try {
      // The process's own clock, as its answers' Date header shows it.
      const clockOfAhead = Date.parse((await fetch(`${ahead.url}/health`)).headers.get('date')!);
      expect(clockOfAhead).toBeGreaterThan(Date.now() + 50_000);
      const project = scriptedProject(model);
      const created = await running.call('/api/session', {
        location: { directory: project },
        model: { providerID: 'scripted', id: 'small' },
      });
      const sessionID = created.body.data.id as string;
      let release!: () => void;
      const answer = new Promise<void>((resolve) => (release = resolve));
      model.script({ text: ['still ', 'running'], until: answer, usage: { input: 3, output: 2 } });
      expect((await running.call(`/api/session/${sessionID}/prompt`, { text: 'first' })).status).toBe(200);
      await running.stream.until((events) =>
        events.some(
          (e) => e.type === 'session.message.part.delta' && (e.data as Data).sessionID === sessionID,
        ),
      );
      const drain = async () =>
        (
          await query<{ owner: string; lease_expires: string }>(
            database.url,
            'SELECT owner, lease_expires FROM session_drain WHERE session_id = $1',
            [sessionID],
          )
        )[0];
      const claimed = await drain();
      // Two leases on: the process ahead has swept every second meanwhile (its old rule, its own clock against
      // the lease, took the drain over at its first sweep); the owner renewed and still holds it.
      await pollUntil('two leases of renewals', async () => {
        const row = await drain();
        expect(row.owner).toBe(claimed.owner);
        return Number(row.lease_expires) >= Number(claimed.lease_expires) + 6_000;
      });
      release();
      await running.stream.until((events) =>
        events.some(
          (e) =>
            e.type === 'session.idle' &&
            (e.data as Data).sessionID === sessionID &&
            (e.data as Data).outcome === 'succeeded',
        ),
      );
      expect(
        ahead.stream.events.filter(
          (e) => e.type === 'session.execution.interrupted' && (e.data as Data).sessionID === sessionID,
        ),
      ).toEqual([]);
      expect(await drain()).toBeUndefined();
    } finally {
      running.child.kill('SIGKILL');
      ahead.child.kill('SIGKILL');
      await Promise.all([running.exited, ahead.exited]);
      await database.drop();
    }
  });
});
