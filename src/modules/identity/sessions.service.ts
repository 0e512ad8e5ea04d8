import { Inject, Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { randomBytes } from 'node:crypto';
import { EntityManager, Repository } from 'typeorm';
import { Clock } from '@/common/clock';
import { ulidId } from '@/common/ids';
import { ConsoleSessionEntity } from './console-session.entity';
import { identityConfig, IdentityConfig } from './identity.config';
import { sha256 } from '@/common/hash';

export interface SignedInPerson {
  id: string;
  email: string;
  name: string;
}

/** Server-side sign-ins: the cookie holds a random value, the database its SHA-256. */
@Injectable()
export class SessionsService {
  constructor(
    @InjectRepository(ConsoleSessionEntity) private readonly sessions: Repository<ConsoleSessionEntity>,
    @Inject(identityConfig.KEY) private readonly config: IdentityConfig,
    private readonly clock: Clock,
  ) {}

  get lifetimeMs(): number {
    return this.config.sessionDays * 24 * 3600_000;
  }

  /** Starts a sign-in and returns the cookie value (never stored). */
  async start(userId: string, manager: EntityManager = this.sessions.manager): Promise<string> {
    const value = randomBytes(32).toString('base64url');
    const now = this.clock.now();
    await manager.insert(ConsoleSessionEntity, {
      id: ulidId('cse', now),
      tokenHash: sha256(value),
      userId,
      createdAt: new Date(now),
      expiresAt: new Date(now + this.lifetimeMs),
    });
    return value;
  }

  /** The person a live sign-in cookie belongs to, for the console's pages. */
  async person(cookieValue: string): Promise<SignedInPerson | undefined> {
    const [row] = (await this.sessions.query(
      `SELECT u.id, u.email, u.name FROM console_session s JOIN users u ON u.id = s.user_id
        WHERE s.token_hash = $1 AND s.expires_at > $2`,
      [sha256(cookieValue), new Date(this.clock.now())],
    )) as SignedInPerson[];
    return row;
  }

  async end(cookieValue: string): Promise<void> {
    await this.sessions.delete({ tokenHash: sha256(cookieValue) });
  }
}
