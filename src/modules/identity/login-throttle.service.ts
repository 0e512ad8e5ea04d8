import { Injectable } from '@nestjs/common';
import { RateLimiter } from '@/common/rate-limit/rate-limiter';

export const LOGIN_WINDOW_MS = 15 * 60_000;
/** Wrong passwords for one account from one address per window: then that pair waits for the window. */
export const MAX_FAILURES_PER_PAIR = 10;
/** Wrong passwords from one address per window, whatever the account (spraying many accounts). */
export const MAX_FAILURES_PER_ADDRESS = 50;
/** Wrong passwords for one account from anywhere before each attempt on it is slowed down. */
export const FREE_FAILURES_PER_ACCOUNT = 10;
const BASE_DELAY_MS = 250;
export const MAX_DELAY_MS = 8_000;
const MESSAGE = 'Too many failed sign-ins; try again later';

/**
 * Console sign-in limits, shared by every server process (PostgreSQL, or Redis with `REDIS_URL`) and read from
 * the store at each attempt, so a fleet behind a balancer holds them as one process does. No attacker
 * can lock an owner out: an address that guesses is refused for that account (and, past a larger number, for
 * every account), while the account itself only answers more slowly (a delay that doubles with each failure
 * past the free ones, at most 8 s), so its owner from another address still signs in.
 */
@Injectable()
export class LoginThrottleService {
  constructor(private readonly limiter: RateLimiter) {}

  private keys(ip: string, email: string) {
    return {
      pair: `login-pair:${email}|${ip}`,
      address: `login-address:${ip}`,
      account: `login-account:${email}`,
    };
  }

  /** 429 while the pair or the address is over its limit; otherwise the delay this attempt must wait (ms). */
  async check(ip: string, email: string): Promise<number> {
    const keys = this.keys(ip, email);
    const pair = { max: MAX_FAILURES_PER_PAIR, windowMs: LOGIN_WINDOW_MS };
    await this.limiter.check(keys.pair, pair, MESSAGE, true);
    const address = { max: MAX_FAILURES_PER_ADDRESS, windowMs: LOGIN_WINDOW_MS };
    await this.limiter.check(keys.address, address, MESSAGE, true);
    const failures = await this.limiter.count(keys.account, LOGIN_WINDOW_MS, true);
    return delayFor(failures);
  }

  /** Counts a wrong password; the one past the pair's or the address's limit is answered 429 instead of 401. */
  async recordFailure(ip: string, email: string): Promise<void> {
    const keys = this.keys(ip, email);
    await this.limiter.hit(keys.account, LOGIN_WINDOW_MS);
    await this.limiter.consume(keys.pair, { max: MAX_FAILURES_PER_PAIR, windowMs: LOGIN_WINDOW_MS }, MESSAGE);
    await this.limiter.consume(
      keys.address,
      { max: MAX_FAILURES_PER_ADDRESS, windowMs: LOGIN_WINDOW_MS },
      MESSAGE,
    );
  }

  /** The right password clears the count of the account and of this address for it. */
  async reset(ip: string, email: string): Promise<void> {
    const keys = this.keys(ip, email);
    await this.limiter.clear(keys.pair);
    await this.limiter.clear(keys.account);
  }
}

export function delayFor(accountFailures: number): number {
  const over = accountFailures - FREE_FAILURES_PER_ACCOUNT;
  return over < 0 ? 0 : Math.min(MAX_DELAY_MS, BASE_DELAY_MS * 2 ** over);
}
