import { DataSource } from 'typeorm';
import { RateLimitStore, WindowCount } from './rate-limit.store';

/** How often a process deletes the windows that have ended (at most; on a hit). */
const SWEEP_EVERY_MS = 60_000;

/**
 * Counters in the `rate_limit_window` table (key, window_start, expires_at, hits): one atomic upsert per hit, which
 * starts a new window in the row once the old one ended. Rows of windows that ended are deleted at most once a
 * minute per process, on a hit, so keys seen once (an address, a revoked key) do not stay forever.
 */
export class PostgresRateLimitStore implements RateLimitStore {
  private sweptAt = -Infinity;

  constructor(private readonly db: DataSource) {}

  async hit(key: string, windowMs: number, now: number, amount = 1): Promise<WindowCount> {
    this.sweep(now);
    const rows = (await this.db.query(
      `INSERT INTO rate_limit_window AS t (key, window_start, expires_at, hits) VALUES ($1, $2, $5, $4)
       ON CONFLICT (key) DO UPDATE SET
         hits = CASE WHEN t.window_start <= $3 THEN $4 ELSE t.hits + $4 END,
         expires_at = CASE WHEN t.window_start <= $3 THEN $5 ELSE t.expires_at END,
         window_start = CASE WHEN t.window_start <= $3 THEN $2 ELSE t.window_start END
       RETURNING hits, window_start`,
      [key, new Date(now), new Date(now - windowMs), amount, new Date(now + windowMs)],
    )) as Array<{ hits: number; window_start: Date }>;
    return { count: rows[0].hits, resetsAt: rows[0].window_start.getTime() + windowMs };
  }

  async peek(key: string, windowMs: number, now: number): Promise<WindowCount> {
    const rows = (await this.db.query(
      'SELECT hits, window_start FROM rate_limit_window WHERE key = $1 AND window_start > $2',
      [key, new Date(now - windowMs)],
    )) as Array<{ hits: number; window_start: Date }>;
    return rows[0]
      ? { count: rows[0].hits, resetsAt: rows[0].window_start.getTime() + windowMs }
      : { count: 0, resetsAt: now };
  }

  async clear(key: string): Promise<void> {
    await this.db.query('DELETE FROM rate_limit_window WHERE key = $1', [key]);
  }

  /** Deletes the windows that ended, once a SWEEP_EVERY_MS; nothing waits on it, and a failure waits for the next. */
  private sweep(now: number): void {
    if (now - this.sweptAt < SWEEP_EVERY_MS) return;
    this.sweptAt = now;
    this.db
      .query('DELETE FROM rate_limit_window WHERE expires_at <= $1', [new Date(now)])
      .catch(() => undefined);
  }
}
