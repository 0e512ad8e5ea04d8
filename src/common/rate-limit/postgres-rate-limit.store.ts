import { DataSource } from 'typeorm';
import { RateLimitStore, WindowCount } from './rate-limit.store';

/** Counters in the `login_throttle` table (key, window_start, failures): one atomic upsert per hit. */
export class PostgresRateLimitStore implements RateLimitStore {
  constructor(private readonly db: DataSource) {}

  async hit(key: string, windowMs: number, now: number, amount = 1): Promise<WindowCount> {
    const rows = (await this.db.query(
      `INSERT INTO login_throttle AS t (key, window_start, failures) VALUES ($1, $2, $4)
       ON CONFLICT (key) DO UPDATE SET
         failures = CASE WHEN t.window_start <= $3 THEN $4 ELSE t.failures + $4 END,
         window_start = CASE WHEN t.window_start <= $3 THEN $2 ELSE t.window_start END
       RETURNING failures, window_start`,
      [key, new Date(now), new Date(now - windowMs), amount],
    )) as Array<{ failures: number; window_start: Date }>;
    return { count: rows[0].failures, resetsAt: rows[0].window_start.getTime() + windowMs };
  }

  async peek(key: string, windowMs: number, now: number): Promise<WindowCount> {
    const rows = (await this.db.query(
      'SELECT failures, window_start FROM login_throttle WHERE key = $1 AND window_start > $2',
      [key, new Date(now - windowMs)],
    )) as Array<{ failures: number; window_start: Date }>;
    return rows[0]
      ? { count: rows[0].failures, resetsAt: rows[0].window_start.getTime() + windowMs }
      : { count: 0, resetsAt: now };
  }

  async clear(key: string): Promise<void> {
    await this.db.query('DELETE FROM login_throttle WHERE key = $1', [key]);
  }
}
