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
/** How long counts added without waiting (`add`) are summed before they are written. */
const ADD_FLUSH_MS = 100;
/** `consume` counts in the store before admitting once the limit is this near (or a tenth of it, if more). */
const EXACT_MARGIN = 20;

/**
 * Limits that hold across every server process (the store is shared), with the 429 every surface answers.
 * A check reads the shared counter at most once a second per key; what another process counted is seen
 * within that second. Counts that nothing waits on are summed in the process and written every 100 ms (`add`),
 * so a busy key costs the store a write per key and tick, not one per event.
 */
@Injectable()
export class RateLimiter implements OnApplicationShutdown {
  private readonly seen = new Map<string, WindowCount & { readAt: number }>();
  /** Counts added in this process and not yet written, per key. */
  private readonly unwritten = new Map<string, { windowMs: number; amount: number }>();
  private flushTimer?: NodeJS.Timeout;
  private flushing = Promise.resolve();

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
    const count = known.count + (this.unwritten.get(key)?.amount ?? 0);
    if (count >= limit.max && known.resetsAt > now) throw this.refusal(message, known.resetsAt, now);
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

  /**
   * Counts `amount` under `key` without waiting: summed with the key's other counts in this process and written
   * within ADD_FLUSH_MS. For counts no decision waits on (the tokens a call used, counted after its answer).
   */
  add(key: string, windowMs: number, amount = 1): void {
    const entry = this.unwritten.get(key);
    if (entry) entry.amount += amount;
    else this.unwritten.set(key, { windowMs, amount });
    this.flushTimer ??= setTimeout(() => void this.flush(), ADD_FLUSH_MS);
  }

  /**
   * Counts one event and refuses it (429) when it is past the limit, counted in the store before it is admitted.
   * `batched` (the gateway's requests a minute): far from the limit (what was last read of the shared count,
   * within the second, plus what this process added since leaves more than EXACT_MARGIN, or a tenth of the limit),
   * the event is added like `add`; near it, each event is counted in the store first, so the limit holds exactly
   * across processes where it decides. Security limits (failed sign-ins) are never batched.
   */
  async consume(key: string, limit: Limit, message: string, batched = false): Promise<void> {
    const now = this.clock.now();
    const known = this.seen.get(key);
    const pending = this.unwritten.get(key);
    const margin = Math.max(EXACT_MARGIN, Math.ceil(limit.max / 10));
    const fresh = known && now - known.readAt <= PEEK_CACHE_MS && known.resetsAt > now;
    if (batched && fresh && known.count + (pending?.amount ?? 0) + 1 <= limit.max - margin) {
      this.add(key, limit.windowMs);
      return;
    }
    this.unwritten.delete(key);
    const amount = 1 + (pending?.amount ?? 0);
    const { count, resetsAt } = this.remember(
      key,
      await this.store.hit(key, limit.windowMs, now, amount),
      now,
    );
    if (count > limit.max) throw this.refusal(message, resetsAt, now);
  }

  /** Writes what `add` summed: one store call per key. */
  flush(): Promise<void> {
    clearTimeout(this.flushTimer);
    this.flushTimer = undefined;
    const batch = [...this.unwritten];
    this.unwritten.clear();
    this.flushing = this.flushing.then(async () => {
      const now = this.clock.now();
      await Promise.all(
        batch.map(async ([key, { windowMs, amount }]) => {
          try {
            this.remember(key, await this.store.hit(key, windowMs, now, amount), now);
          } catch {
            // The store is down: these counts are lost, as a counter in it would be; limits read it again later.
          }
        }),
      );
    });
    return this.flushing;
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
    await this.flush();
    await this.store.close?.();
  }

  private refusal(message: string, resetsAt: number, now: number): TooManyRequestsError {
    return new TooManyRequestsError(message, Math.max(1, Math.ceil((resetsAt - now) / 1000)));
  }
}
