import { Inject, Injectable } from '@nestjs/common';
import { Clock } from '../../common/clock';
import { TooManyRequestsError } from '../../common/errors';
import { instanceAuthConfig, InstanceAuthConfig } from './instance-auth.config';

/** Addresses kept before stale ones are swept, so a flood of addresses cannot grow memory without bound. */
const SWEEP_AT = 10_000;

/**
 * Slows down online guessing of passwords, tokens and pairing codes: an address with too many failed
 * attempts within the window gets 429 with `Retry-After` until the oldest of them leaves the window,
 * whatever it presents (a correct guess would otherwise show through).
 */
@Injectable()
export class FailedAttemptsLimiter {
  private readonly failures = new Map<string, number[]>();

  constructor(
    @Inject(instanceAuthConfig.KEY) private readonly config: InstanceAuthConfig,
    private readonly clock: Clock,
  ) {}

  /** Throws 429 when the address has used up its failed attempts. */
  check(address: string): void {
    const recent = this.recent(address, this.clock.now());
    if (recent.length < this.config.maxFailures) return;
    const retryAfterMs = recent[0] + this.windowMs - this.clock.now();
    throw new TooManyRequestsError(
      'Too many failed attempts; try again later',
      Math.max(1, Math.ceil(retryAfterMs / 1000)),
    );
  }

  fail(address: string): void {
    const now = this.clock.now();
    if (this.failures.size >= SWEEP_AT) this.sweep(now);
    const recent = this.recent(address, now);
    recent.push(now);
    // Only the newest `maxFailures` matter for the decision.
    if (recent.length > this.config.maxFailures) recent.shift();
    this.failures.set(address, recent);
  }

  private get windowMs(): number {
    return this.config.failureWindowSeconds * 1000;
  }

  private recent(address: string, now: number): number[] {
    const times = this.failures.get(address) ?? [];
    const firstInWindow = times.findIndex((time) => time > now - this.windowMs);
    return firstInWindow < 0 ? [] : times.slice(firstInWindow);
  }

  private sweep(now: number): void {
    for (const [address, times] of this.failures) {
      if (times[times.length - 1] <= now - this.windowMs) this.failures.delete(address);
    }
  }
}
