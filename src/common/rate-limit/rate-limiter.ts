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
/** The most events one lease reserves (`consume`, batched). */
const MAX_LEASE = 256;

interface Lease {
  /** Events reserved in the store and not yet admitted. */
  left: number;
  /** How many the lease reserved when taken: it is renewed when a quarter is left. */
  size: number;
  resetsAt: number;
}

/**
 * Limits that hold across every server process (the store is shared), with the 429 every surface answers.
 * A check reads the shared counter at most once a second per key; what another process counted is seen
 * within that second. Busy limits that are consumed reserve leases of events (`consume`, batched). Counts that
 * nothing waits on are summed in the process and written every 100 ms (`add`),
 * so a busy key costs the store a write per key and tick, not one per event.
 */
@Injectable()
export class RateLimiter implements OnApplicationShutdown {
  private readonly seen = new Map<string, WindowCount & { readAt: number }>();
  /** Counts added in this process and not yet written, per key. */
  private readonly unwritten = new Map<string, { windowMs: number; amount: number }>();
  /** Events reserved in the store that this process may admit without asking it (`consume`, batched). */
  private readonly leases = new Map<string, Lease>();
  /** The lease reservation in flight per key (at most one per process). */
  private readonly reserving = new Map<string, Promise<boolean>>();
  private flushTimer?: NodeJS.Timeout;
  private flushing = Promise.resolve();

  constructor(
    @Inject(RATE_LIMIT_STORE) private readonly store: RateLimitStore,
    private readonly clock: Clock,
  ) {}

  /**
   * 429 when `key` has used up its events in the current window; counts nothing. The shared counter is read at
   * most once a second, or every time when `exact` (a security limit: a count another process made must hold here
   * at once, or a right password could pass one just over the limit).
   */
  async check(key: string, limit: Limit, message: string, exact = false): Promise<void> {
    const now = this.clock.now();
    const known = await this.read(key, limit.windowMs, now, exact);
    const count = known.count + (this.unwritten.get(key)?.amount ?? 0);
    if (count >= limit.max && known.resetsAt > now) throw this.refusal(message, known.resetsAt, now);
  }

  /** How many events the current window holds under `key` (read as `check` reads it). */
  async count(key: string, windowMs: number, exact = false): Promise<number> {
    return (await this.read(key, windowMs, this.clock.now(), exact)).count;
  }

  /** Counts `amount` (one event) under `key` and answers how many the window holds now. */
  async hit(key: string, windowMs: number, amount = 1): Promise<number> {
    const now = this.clock.now();
    return this.remember(key, await this.store.hit(key, windowMs, now, amount), now).count;
  }

  private async read(key: string, windowMs: number, now: number, exact: boolean): Promise<WindowCount> {
    const known = exact ? undefined : this.fresh(key, now);
    return known ?? this.remember(key, await this.store.peek(key, windowMs, now), now);
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
   * `batched` (the gateway's requests a minute): far from the limit, a process reserves a lease of several events
   * in the store with one write (a tenth of what the window has left, at most MAX_LEASE) and admits from it
   * without a round trip, reserving the next lease ahead when a quarter is left. Near the limit a lease is one
   * event. One reservation per key is in flight in a process; callers without an event wait for it. The store's
   * count is what was reserved, so the limit is never passed, however many processes share it; a lease left
   * unused when the window ends is dropped. Security limits (failed sign-ins) are never batched.
   */
  async consume(key: string, limit: Limit, message: string, batched = false): Promise<void> {
    if (!batched) {
      const now = this.clock.now();
      if ((await this.reserve(key, limit, 1, now)) === 0)
        throw this.refusal(message, this.resetsAt(key), now);
      return;
    }
    for (;;) {
      if (this.take(key, limit)) return;
      const reserving = this.reserving.get(key) ?? this.lease(key, limit, false);
      if (!(await reserving)) {
        const now = this.clock.now();
        if (this.take(key, limit)) return;
        throw this.refusal(message, this.resetsAt(key), now);
      }
    }
  }

  /** Admits one event from the process's lease, if it holds one; renews the lease ahead when it runs low. */
  private take(key: string, limit: Limit): boolean {
    const lease = this.leases.get(key);
    if (!lease || lease.left === 0 || lease.resetsAt <= this.clock.now()) return false;
    lease.left -= 1;
    if (lease.left <= lease.size / 4 && !this.reserving.has(key)) void this.lease(key, limit, true);
    return true;
  }

  /**
   * Reserves a lease in the store (the only reservation in flight for `key` here): false when nothing fits under
   * the limit. `ahead` (a renewal before the lease ran out) reserves only while far from the limit.
   */
  private lease(key: string, limit: Limit, ahead: boolean): Promise<boolean> {
    const now = this.clock.now();
    const size = this.leaseSize(key, limit, now);
    if (ahead && size <= 1) return Promise.resolve(true);
    const reserving = this.reserve(key, limit, size, now)
      .then((granted) => {
        if (granted > 0) this.lend(key, granted, size, this.resetsAt(key), now);
        return granted > 0;
      })
      .catch((error: unknown) => {
        if (ahead) return true; // the store is down: the next event past the lease meets the error itself
        throw error;
      })
      .finally(() => this.reserving.delete(key));
    this.reserving.set(key, reserving);
    return reserving;
  }

  /** Reserves up to `size` events in the store: how many fit under the limit (0 when none do). */
  private async reserve(key: string, limit: Limit, size: number, now: number): Promise<number> {
    const { count } = this.remember(key, await this.store.hit(key, limit.windowMs, now, size), now);
    return Math.max(0, Math.min(size, limit.max - (count - size)));
  }

  /** A lease as large as a tenth of what the window has left, as last read; 1 when nothing was read lately. */
  private leaseSize(key: string, limit: Limit, now: number): number {
    const known = this.fresh(key, now);
    if (!known) return 1;
    return Math.min(MAX_LEASE, Math.max(1, Math.floor((limit.max - known.count) / 10)));
  }

  private lend(key: string, events: number, size: number, resetsAt: number, now: number): void {
    const lease = this.leases.get(key);
    if (lease && lease.resetsAt > now) {
      lease.left += events;
      lease.size = size;
      return;
    }
    if (this.leases.size >= PEEK_CACHE_SIZE) this.leases.clear();
    this.leases.set(key, { left: events, size, resetsAt });
  }

  private resetsAt(key: string): number {
    return this.seen.get(key)?.resetsAt ?? this.clock.now();
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
    this.leases.delete(key);
    return this.store.clear(key);
  }

  /** What was last read of `key`'s counter, if read within PEEK_CACHE_MS and its window still runs. */
  /**
   * What was read of `key` within PEEK_CACHE_MS: a window that has not ended, or no window at all (nothing counted,
   * the usual case: an address without failed sign-ins). Before, an empty window (resetsAt = now) was never fresh,
   * so every request of a signed-in client read the store.
   */
  private fresh(key: string, now: number): WindowCount | undefined {
    const known = this.seen.get(key);
    if (!known || now - known.readAt > PEEK_CACHE_MS) return undefined;
    return known.count === 0 || known.resetsAt > now ? known : undefined;
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
