import Redis from 'ioredis';
import { RateLimitStore, WindowCount } from './rate-limit.store';

const PREFIX = 'outpost:rl:';

/** Counters in Redis: INCR, and the window's expiry set by the first hit (one round trip with a pipeline). */
export class RedisRateLimitStore implements RateLimitStore {
  private readonly redis: Redis;

  constructor(url: string) {
    this.redis = new Redis(url, { lazyConnect: false, maxRetriesPerRequest: 2, enableOfflineQueue: true });
  }

  async hit(key: string, windowMs: number, now: number, amount = 1): Promise<WindowCount> {
    const result = await this.redis
      .multi()
      .incrby(PREFIX + key, amount)
      .pexpire(PREFIX + key, windowMs, 'NX')
      .pttl(PREFIX + key)
      .exec();
    const count = Number(result?.[0]?.[1] ?? 1);
    const ttl = Number(result?.[2]?.[1] ?? windowMs);
    return { count, resetsAt: now + Math.max(0, ttl) };
  }

  async peek(key: string, _windowMs: number, now: number): Promise<WindowCount> {
    const [count, ttl] = await Promise.all([this.redis.get(PREFIX + key), this.redis.pttl(PREFIX + key)]);
    return { count: Number(count ?? 0), resetsAt: now + Math.max(0, ttl) };
  }

  async clear(key: string): Promise<void> {
    await this.redis.del(PREFIX + key);
  }

  async close(): Promise<void> {
    await this.redis.quit().catch(() => undefined);
  }
}
