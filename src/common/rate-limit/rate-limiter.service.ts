import { Inject, Injectable, OnApplicationShutdown } from '@nestjs/common';
import { Clock } from '../clock';
import { TooManyRequestsError } from '../errors';
import { RATE_LIMIT_STORE, RateLimitStore, WindowCount } from './rate-limit.store';

export interface Limit {
  /** Events allowed per window. */
  max: number;
  windowMs: number;
}

/** How long a process trusts what it last read of a counter: checks on the hot path cost no round trip. */
const PEEK_CACHE_MS = 1_000;
const PEEK_CACHE_SIZE = 10_000;

/**
 * Limits that hold across every server process (the store is shared), with the 429 every surface answers.
 * A check reads the shared counter at most once a second per key; what another process counted is seen
 * within that second.
 */
@Injectable()
export class RateLimiter implements OnApplicationShutdown {
  private readonly seen = new Map<string, WindowCount & { readAt: number }>();

  constructor(
    @Inject(RATE_LIMIT_STORE) private readonly store: RateLimitStore,
    private readonly clock: Clock,
  ) {}

  /** 429 when `key` has used up its events in the current window; counts nothing. */
  async check(key: string, limit: Limit, message: string): Promise<void> {
    const now = this.clock.now();
    const cached = this.seen.get(key);
    const known =
      cached && now - cached.readAt <= PEEK_CACHE_MS && cached.resetsAt > now
        ? cached
        : this.remember(key, await this.store.peek(key, limit.windowMs, now), now);
    if (known.count >= limit.max && known.resetsAt > now) throw this.refusal(message, known.resetsAt, now);
  }

  /** How many events the current window holds under `key` (read at most once a second). */
  async count(key: string, windowMs: number): Promise<number> {
    const now = this.clock.now();
    const cached = this.seen.get(key);
    if (cached && now - cached.readAt <= PEEK_CACHE_MS && cached.resetsAt > now) return cached.count;
    return this.remember(key, await this.store.peek(key, windowMs, now), now).count;
  }

  /** Counts `amount` (one event) under `key` and answers how many the window holds now. */
  async hit(key: string, windowMs: number, amount = 1): Promise<number> {
    const now = this.clock.now();
    return this.remember(key, await this.store.hit(key, windowMs, now, amount), now).count;
  }

  /** Counts one event and refuses it (429) when it is past the limit. */
  async consume(key: string, limit: Limit, message: string): Promise<void> {
    const now = this.clock.now();
    const { count, resetsAt } = this.remember(key, await this.store.hit(key, limit.windowMs, now), now);
    if (count > limit.max) throw this.refusal(message, resetsAt, now);
  }

  clear(key: string): Promise<void> {
    this.seen.delete(key);
    return this.store.clear(key);
  }

  private remember(key: string, count: WindowCount, now: number): WindowCount {
    if (this.seen.size >= PEEK_CACHE_SIZE) this.seen.clear();
    this.seen.set(key, { ...count, readAt: now });
    return count;
  }

  async onApplicationShutdown(): Promise<void> {
    await this.store.close?.();
  }

  private refusal(message: string, resetsAt: number, now: number): TooManyRequestsError {
    return new TooManyRequestsError(message, Math.max(1, Math.ceil((resetsAt - now) / 1000)));
  }
}
