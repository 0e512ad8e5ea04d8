import { BatchSchedule } from './batch-schedule';

const EVERY_MS = 40;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** Resolves once `done` holds (checked every few ms); the test's timeout ends a wait that never does. */
async function until(done: () => boolean): Promise<void> {
  while (!done()) await sleep(5);
}

/** A schedule whose writes are counted; each takes `writeMs`, and fails while `failing` is set. */
function counted(writeMs = 0) {
  const state = { writes: 0, failing: false, schedule: undefined as unknown as BatchSchedule };
  state.schedule = new BatchSchedule(EVERY_MS, async () => {
    state.writes++;
    await sleep(writeMs);
    if (state.failing) state.schedule.retry();
  });
  return state;
}

describe('BatchSchedule', () => {
  it('writes what was added once, EVERY_MS after the first addition', async () => {
    const state = counted();
    state.schedule.added(false);
    state.schedule.added(false);
    await sleep(EVERY_MS / 4);
    expect(state.writes).toBe(0);
    await until(() => state.writes > 0);
    await sleep(EVERY_MS * 2);
    expect(state.writes).toBe(1);
  });

  it('writes at once when a batch is full, and the timer it replaced does not write again', async () => {
    const state = counted();
    state.schedule.added(false);
    state.schedule.added(true);
    await sleep(1);
    expect(state.writes).toBe(1);
    await sleep(EVERY_MS * 2);
    expect(state.writes).toBe(1);
  });

  it('joins the flushes asked for while one waits behind the write in flight', async () => {
    const state = counted(EVERY_MS / 2);
    const first = state.schedule.flush();
    await sleep(1); // the first write runs
    const asked = [state.schedule.flush(), state.schedule.flush(), state.schedule.flush()];
    expect(asked[1]).toBe(asked[0]);
    await Promise.all([first, ...asked]);
    expect(state.writes).toBe(2);
  });

  it('tries a failed write again later, but not once stopped', async () => {
    const state = counted();
    state.failing = true;
    await state.schedule.flush();
    expect(state.writes).toBe(1);
    await until(() => state.writes >= 2); // the retry, which failed and asked for another
    await state.schedule.stop(); // fails too: no retry after it
    const stoppedAt = state.writes;
    await sleep(EVERY_MS * 3);
    expect(state.writes).toBe(stoppedAt);
  });

  it('when stopping, writes again what was added during the last write, until nothing is pending', async () => {
    let pending = 0;
    let writes = 0;
    const schedule = new BatchSchedule(
      EVERY_MS,
      async () => {
        writes++;
        const taken = pending;
        await sleep(5);
        if (writes === 1) pending++; // added while the first write ran: not taken by it
        pending -= taken;
      },
      () => pending > 0,
    );
    pending = 1;
    await schedule.stop();
    expect(writes).toBe(2);
    expect(pending).toBe(0);
  });

  it('reports a write that threw, resolves its flush and tries it again later, never from a rejected timer', async () => {
    let calls = 0;
    const failures: string[] = [];
    const schedule = new BatchSchedule(
      EVERY_MS,
      () => {
        calls++;
        return calls <= 2 ? Promise.reject(new Error(`disk ${calls}`)) : Promise.resolve();
      },
      () => false,
      (error) => failures.push(error.message),
    );
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      schedule.added(false); // its timer's write throws, and so does the retry it schedules
      await until(() => calls >= 3);
      await expect(schedule.flush()).resolves.toBeUndefined();
      await sleep(EVERY_MS * 2);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
    expect(failures).toEqual(['disk 1', 'disk 2']);
    expect(unhandled).toEqual([]);
    expect(calls).toBe(4);
  });
});
