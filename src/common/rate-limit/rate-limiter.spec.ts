import { Clock } from '../clock';
import { TooManyRequestsError } from '../errors';
import { RateLimiter } from './rate-limiter';
import { RateLimitStore, WindowCount } from './rate-limit.store';

/** A fixed-window store in memory that counts how often it is read. */
class CountingStore implements RateLimitStore {
  peeks = 0;
  private readonly windows = new Map<string, { count: number; start: number }>();

  async hit(key: string, windowMs: number, now: number, amount = 1): Promise<WindowCount> {
    const window = this.current(key, windowMs, now) ?? { count: 0, start: now };
    window.count += amount;
    this.windows.set(key, window);
    return { count: window.count, resetsAt: window.start + windowMs };
  }

  async peek(key: string, windowMs: number, now: number): Promise<WindowCount> {
    this.peeks++;
    const window = this.current(key, windowMs, now);
    return window ? { count: window.count, resetsAt: window.start + windowMs } : { count: 0, resetsAt: now };
  }

  async clear(key: string): Promise<void> {
    this.windows.delete(key);
  }

  private current(key: string, windowMs: number, now: number) {
    const window = this.windows.get(key);
    return window && window.start > now - windowMs ? window : undefined;
  }
}

class ManualClock extends Clock {
  at = 1_800_000_000_000;
  override now(): number {
    return this.at;
  }
}

describe('RateLimiter.check', () => {
  const limit = { max: 3, windowMs: 60_000 };
  let store: CountingStore;
  let clock: ManualClock;
  let limiter: RateLimiter;

  beforeEach(() => {
    store = new CountingStore();
    clock = new ManualClock();
    limiter = new RateLimiter(store, clock);
  });

  it('reads a key with nothing counted once a second, not on every check', async () => {
    for (let i = 0; i < 50; i++) await limiter.check('instance-login:127.0.0.1', limit, 'no');
    expect(store.peeks).toBe(1);
    clock.at += 1_001;
    await limiter.check('instance-login:127.0.0.1', limit, 'no');
    expect(store.peeks).toBe(2);
  });

  it('trusts what it read for a second, then sees what another process counted and refuses once the limit is used up', async () => {
    await limiter.check('k', limit, 'too many');
    const other = new RateLimiter(store, clock);
    for (let i = 0; i < 3; i++) await other.hit('k', limit.windowMs);
    await expect(limiter.check('k', limit, 'too many')).resolves.toBeUndefined();
    clock.at += 1_001;
    await expect(limiter.check('k', limit, 'too many')).rejects.toBeInstanceOf(TooManyRequestsError);
  });

  it('reads an ended window again at once', async () => {
    for (let i = 0; i < 3; i++) await limiter.hit('k', limit.windowMs);
    await expect(limiter.check('k', limit, 'too many')).rejects.toBeInstanceOf(TooManyRequestsError);
    clock.at += limit.windowMs;
    const before = store.peeks;
    await expect(limiter.check('k', limit, 'too many')).resolves.toBeUndefined();
    expect(store.peeks).toBe(before + 1);
  });
});
