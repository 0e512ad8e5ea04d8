import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, In } from 'typeorm';
import { Clock } from '../../common/clock';
import { TooManyRequestsError } from '../../common/errors';
import { LoginThrottleEntity } from './login-throttle.entity';

export const LOGIN_WINDOW_MS = 15 * 60_000;
/** Failed sign-ins allowed per window: per account (guessing one password) and per address (spraying many). */
export const MAX_FAILURES_PER_ACCOUNT = 10;
export const MAX_FAILURES_PER_ADDRESS = 50;

interface ThrottleKeys {
  address: string;
  account: string;
}

/** Counts failed sign-ins in the database, so every server process shares the limits. */
@Injectable()
export class LoginThrottleService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly clock: Clock,
  ) {}

  private keys(ip: string, email: string): ThrottleKeys {
    return { address: `address:${ip}`, account: `account:${email}` };
  }

  /** 429 while either the address or the account is over its limit in the current window. */
  async check(ip: string, email: string): Promise<void> {
    const keys = this.keys(ip, email);
    const rows = await this.db
      .getRepository(LoginThrottleEntity)
      .findBy({ key: In([keys.address, keys.account]) });
    const now = this.clock.now();
    for (const row of rows) {
      const limit = row.key === keys.account ? MAX_FAILURES_PER_ACCOUNT : MAX_FAILURES_PER_ADDRESS;
      const windowEnds = row.windowStart.getTime() + LOGIN_WINDOW_MS;
      if (row.failures >= limit && windowEnds > now) {
        throw new TooManyRequestsError(
          'Too many failed sign-ins; try again later',
          Math.ceil((windowEnds - now) / 1000),
        );
      }
    }
  }

  /** One atomic upsert per key: a window older than LOGIN_WINDOW_MS starts over. */
  async recordFailure(ip: string, email: string): Promise<void> {
    const now = new Date(this.clock.now());
    const windowOpen = new Date(now.getTime() - LOGIN_WINDOW_MS);
    for (const key of Object.values(this.keys(ip, email))) {
      await this.db.query(
        `INSERT INTO login_throttle (key, window_start, failures) VALUES ($1, $2, 1)
         ON CONFLICT (key) DO UPDATE SET
           failures = CASE WHEN login_throttle.window_start <= $3 THEN 1 ELSE login_throttle.failures + 1 END,
           window_start = CASE WHEN login_throttle.window_start <= $3 THEN $2 ELSE login_throttle.window_start END`,
        [key, now, windowOpen],
      );
    }
  }

  async reset(ip: string, email: string): Promise<void> {
    await this.db.getRepository(LoginThrottleEntity).delete({ key: this.keys(ip, email).account });
  }
}
