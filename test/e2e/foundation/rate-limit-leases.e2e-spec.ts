import { RATE_LIMIT_STORE, RateLimitStore } from '@/common/rate-limit/rate-limit.store';
import { RateLimiter } from '@/common/rate-limit/rate-limiter';
import { clearRedis, REDIS_URL } from '../../helpers/redis';
import { createTestApp, TestApp } from '../../helpers/test-app';

const MINUTE = { windowMs: 60_000 };

/** The app's store, counting the writes the limiters make. */
function counted(store: RateLimitStore): RateLimitStore & { writes: number } {
  const wrapped = {
    writes: 0,
    hit: (...args: Parameters<RateLimitStore['hit']>) => {
      wrapped.writes += 1;
      return store.hit(...args);
    },
    peek: store.peek.bind(store),
    clear: store.clear.bind(store),
  };
  return wrapped;
}

/** Consumes once; true when admitted, false when refused with the limit's 429. */
async function admitted(limiter: RateLimiter, key: string, max: number): Promise<boolean> {
  try {
    await limiter.consume(key, { ...MINUTE, max }, 'limit reached', true);
    return true;
  } catch (error) {
    if ((error as { status?: number }).status === 429) return false;
    throw error;
  }
}

describe.each([
  ['PostgreSQL', {}],
  ['Redis', { REDIS_URL }],
])('limits shared by processes through the store (%s)', (_store, env: Record<string, string>) => {
  let t: TestApp;
  let store: RateLimitStore & { writes: number };

  beforeAll(async () => {
    if (env.REDIS_URL) await clearRedis('outpost:rl:lease-*');
    t = await createTestApp({ env });
    store = counted(t.app.get<RateLimitStore>(RATE_LIMIT_STORE));
  });
  afterAll(() => t.close());

  it('four processes calling at once admit exactly the limit, never more, and far from it write once per lease', async () => {
    const processes = Array.from({ length: 4 }, () => new RateLimiter(store, t.clock));
    const key = `lease-${Date.now()}`;
    const results: boolean[] = [];
    // 30 rounds of every process calling 10 times at once: 1,200 calls against 1,000 a minute.
    for (let round = 0; round < 30; round++) {
      const calls = processes.flatMap((limiter) =>
        Array.from({ length: 10 }, () => admitted(limiter, key, 1_000)),
      );
      results.push(...(await Promise.all(calls)));
    }
    expect(results.filter(Boolean)).toHaveLength(1_000);
    expect(results.slice(-100).some(Boolean)).toBe(false);
    expect(store.writes).toBeLessThan(400);
  });

  it("an exact check sees another process's count at once; a plain one may trail it by a second", async () => {
    const [here, there] = [new RateLimiter(store, t.clock), new RateLimiter(store, t.clock)];
    const key = `exact-${Date.now()}`;
    const limit = { ...MINUTE, max: 3 };
    await there.consume(key, limit, 'refused');
    await here.check(key, limit, 'refused', true); // reads 1, and remembers it
    for (let i = 0; i < 2; i++) await there.consume(key, limit, 'refused');
    await expect(here.check(key, limit, 'refused')).resolves.toBeUndefined(); // the remembered 1
    await expect(here.check(key, limit, 'refused', true)).rejects.toMatchObject({ status: 429 });
    expect(await here.count(key, MINUTE.windowMs, true)).toBe(3);
  });
});

// PostgreSQL's windows follow the app's clock, which the test moves; Redis's expire on its own time.
describe('a batched limit on PostgreSQL when the minute ends', () => {
  let t: TestApp;
  let store: RateLimitStore;

  beforeAll(async () => {
    t = await createTestApp();
    store = t.app.get<RateLimitStore>(RATE_LIMIT_STORE);
  });
  afterAll(() => t.close());

  it('a lease is dropped when the minute ends: the next minute admits again from the store', async () => {
    const limiter = new RateLimiter(store, t.clock);
    const key = `lease-window-${Date.now()}`;
    const first: boolean[] = [];
    for (let i = 0; i < 120; i++) first.push(await admitted(limiter, key, 100));
    expect(first.filter(Boolean)).toHaveLength(100);
    t.clock.advance(61_000);
    expect(await admitted(limiter, key, 100)).toBe(true);
  });
});
