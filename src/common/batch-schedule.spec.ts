import { BatchSchedule } from './batch-schedule';

const EVERY_MS = 40;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** Moves the (fake) clock on by `ms`, running the timers and the promises they start on the way. */
const pass = (ms: number) => jest.advanceTimersByTimeAsync(ms);

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
  // The schedule's timers run on Jest's clock: each test says how much time passes, whatever the machine's load.
  beforeEach(() => jest.useFakeTimers({ doNotFake: ['nextTick', 'queueMicrotask'] }));
  afterEach(() => jest.useRealTimers());

  it('writes what was added once, EVERY_MS after the first addition', async () => {
    const state = counted();
    state.schedule.added(false);
    state.schedule.added(false);
    await pass(EVERY_MS / 4);
    expect(state.writes).toBe(0);
    await pass(EVERY_MS);
    expect(state.writes).toBe(1);
    await pass(EVERY_MS * 2);
    expect(state.writes).toBe(1);
  });

  it('writes at once when a batch is full, and the timer it replaced does not write again', async () => {
    const state = counted();
    state.schedule.added(false);
    state.schedule.added(true);
    await pass(0);
    expect(state.writes).toBe(1);
    await pass(EVERY_MS * 2);
    expect(state.writes).toBe(1);
  });

  it('joins the flushes asked for while one waits behind the write in flight', async () => {
    const state = counted(EVERY_MS / 2);
    const first = state.schedule.flush();
    await pass(1); // the first write runs
    const asked = [state.schedule.flush(), state.schedule.flush(), state.schedule.flush()];
    expect(asked[1]).toBe(asked[0]);
    const all = Promise.all([first, ...asked]);
    await pass(EVERY_MS * 2);
    await all;
    expect(state.writes).toBe(2);
  });

  it('tries a failed write again later, but not once stopped', async () => {
    const state = counted();
    state.failing = true;
    const flushed = state.schedule.flush();
    await pass(0);
    await flushed;
    expect(state.writes).toBe(1);
    await pass(EVERY_MS); // the retry, which failed and asked for another
    expect(state.writes).toBe(2);
    const stopped = state.schedule.stop(); // fails too: no retry after it
    await pass(EVERY_MS);
    await stopped;
    const stoppedAt = state.writes;
    await pass(EVERY_MS * 3);
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
    const stopped = schedule.stop();
    await pass(20);
    await stopped;
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
      await pass(EVERY_MS * 3);
      expect(calls).toBe(3);
      const flushed = schedule.flush();
      await pass(0);
      await expect(flushed).resolves.toBeUndefined();
      await pass(EVERY_MS * 2);
      // A real turn of the event loop, in which Node reports a rejection nobody handled.
      await new Promise((resolve) => jest.requireActual('node:timers').setImmediate(resolve));
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
    expect(failures).toEqual(['disk 1', 'disk 2']);
    expect(unhandled).toEqual([]);
    expect(calls).toBe(4);
  });
});
