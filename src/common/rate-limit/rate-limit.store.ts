/** A fixed-window counter shared by every server process: PostgreSQL, or Redis when `REDIS_URL` is set. */
export interface RateLimitStore {
  /** Counts `amount` (1) more under `key` and answers the count in the current window and when it ends. */
  hit(key: string, windowMs: number, now: number, amount?: number): Promise<WindowCount>;
  /** The current window's count, without counting. */
  peek(key: string, windowMs: number, now: number): Promise<WindowCount>;
  clear(key: string): Promise<void>;
  close?(): Promise<void>;
}

export interface WindowCount {
  count: number;
  /** Epoch ms when the window ends (now, when there is none). */
  resetsAt: number;
}

export const RATE_LIMIT_STORE = Symbol('RateLimitStore');
