import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { Transaction } from '@/database/transaction';
import { ConsoleSessionEntity } from './console-session.entity';

export interface SignedInPerson {
  id: string;
  email: string;
  name: string;
}

/** The `console_session` table: sign-ins by the hash of their cookie. */
@Injectable()
export class ConsoleSessionsRepository {
  constructor(
    @InjectRepository(ConsoleSessionEntity) private readonly sessions: Repository<ConsoleSessionEntity>,
  ) {}

  /** Adds a sign-in, in `tx` when it is part of a larger change (a sign-up). */
  async add(session: ConsoleSessionEntity, tx: Transaction = this.sessions.manager): Promise<void> {
    await tx.insert(ConsoleSessionEntity, session);
  }

  /** The person of a sign-in that is live at `now`. */
  async person(tokenHash: string, now: Date): Promise<SignedInPerson | undefined> {
    const [row] = (await this.sessions.query(
      `SELECT u.id, u.email, u.name FROM console_session s JOIN users u ON u.id = s.user_id
        WHERE s.token_hash = $1 AND s.expires_at > $2`,
      [tokenHash, now],
    )) as SignedInPerson[];
    return row;
  }

  async remove(tokenHash: string): Promise<void> {
    await this.sessions.delete({ tokenHash });
  }

  /** Ends every sign-in of the person (a new password), in `tx`. */
  async removeAllOf(userId: string, tx: Transaction): Promise<void> {
    await tx.delete(ConsoleSessionEntity, { userId });
  }
}
