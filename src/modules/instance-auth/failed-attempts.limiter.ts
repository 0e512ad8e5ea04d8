import { Inject, Injectable } from '@nestjs/common';
import { RateLimiter } from '@/common/rate-limit/rate-limiter';
import { instanceAuthConfig, InstanceAuthConfig } from './instance-auth.config';

const MESSAGE = 'Too many failed attempts; try again later';

/**
 * Slows down online guessing of passwords, tokens and pairing codes: an address with too many failed
 * attempts within the window gets 429 with `Retry-After` until the window is over, whatever it presents
 * (a correct guess would otherwise show through). Counted per address in the shared store, so every server
 * process holds the same limit; other addresses (the owner's) are never held up.
 */
@Injectable()
export class FailedAttemptsLimiter {
  constructor(
    @Inject(instanceAuthConfig.KEY) private readonly config: InstanceAuthConfig,
    private readonly limiter: RateLimiter,
  ) {}

  private get limit() {
    return { max: this.config.maxFailures, windowMs: this.config.failureWindowSeconds * 1000 };
  }

  /** Throws 429 when the address has used up its failed attempts. */
  check(address: string): Promise<void> {
    return this.limiter.check(`instance-login:${address}`, this.limit, MESSAGE);
  }

  /** Counts a failure; the one past the limit is answered 429 instead of 401. */
  fail(address: string): Promise<void> {
    return this.limiter.consume(`instance-login:${address}`, this.limit, MESSAGE);
  }
}
