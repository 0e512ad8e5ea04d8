import Redis from 'ioredis';

/** The machine's Redis (the rate-limit store with `REDIS_URL`). */
export const REDIS_URL = 'redis://127.0.0.1:6379';

/** Deletes the keys matching `pattern`, so a test starts from counters no earlier run left. */
export async function clearRedis(pattern: string): Promise<void> {
  const redis = new Redis(REDIS_URL);
  const keys = await redis.keys(pattern);
  if (keys.length) await redis.del(...keys);
  await redis.quit();
}
