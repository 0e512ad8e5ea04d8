import { Inject, Injectable } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { Clock } from '@/common/clock';
import { sha256 } from '@/common/hash';
import { ulidId } from '@/common/ids';
import { Transaction } from '@/database/transaction';
import { ConsoleSessionsRepository, SignedInPerson } from './console-sessions.repository';
import { identityConfig, IdentityConfig } from './identity.config';

export type { SignedInPerson } from './console-sessions.repository';

/** Server-side sign-ins: the cookie holds a random value, the database its SHA-256. */
@Injectable()
export class SessionsService {
  constructor(
    private readonly sessions: ConsoleSessionsRepository,
    @Inject(identityConfig.KEY) private readonly config: IdentityConfig,
    private readonly clock: Clock,
  ) {}

  get lifetimeMs(): number {
    return this.config.sessionDays * 24 * 3600_000;
  }

  /** Starts a sign-in and returns the cookie value (never stored). */
  async start(userId: string, tx?: Transaction): Promise<string> {
    const value = randomBytes(32).toString('base64url');
    const now = this.clock.now();
    const session = {
      id: ulidId('cse', now),
      tokenHash: sha256(value),
      userId,
      createdAt: new Date(now),
      expiresAt: new Date(now + this.lifetimeMs),
    };
    await this.sessions.add(session, tx);
    return value;
  }

  /** The person a live sign-in cookie belongs to, for the console's pages. */
  person(cookieValue: string): Promise<SignedInPerson | undefined> {
    return this.sessions.person(sha256(cookieValue), new Date(this.clock.now()));
  }

  /** Ends every sign-in of the person, in `tx`. */
  endAll(userId: string, tx: Transaction): Promise<void> {
    return this.sessions.removeAllOf(userId, tx);
  }

  async end(cookieValue: string): Promise<void> {
    await this.sessions.remove(sha256(cookieValue));
  }
}
