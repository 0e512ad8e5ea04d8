import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { execute } from '@/database/execute';
import { Transaction } from '@/database/transaction';
import { UserEntity } from './user.entity';

/** The `users` table: people by their (lower-cased, unique) email. */
@Injectable()
export class UsersRepository {
  constructor(@InjectRepository(UserEntity) private readonly users: Repository<UserEntity>) {}

  /** Adds the person unless their email is taken (then nothing changes); false when it was. */
  async addUnlessEmailTaken(tx: Transaction, user: UserEntity): Promise<boolean> {
    const inserted = await execute(
      tx,
      `INSERT INTO users (id, email, name, password_hash, created_at) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (email) DO NOTHING`,
      [user.id, user.email, user.name, user.passwordHash, user.createdAt],
    );
    return inserted.count > 0;
  }

  /**
   * Whether anyone has an account; in a transaction, first takes a lock that lasts until it ends, so two first
   * sign-ups (on any node) cannot both see none.
   */
  async anyone(tx?: Transaction): Promise<boolean> {
    if (!tx) return this.users.exists();
    await tx.query('SELECT pg_advisory_xact_lock(hashtext($1))', ['first-signup']);
    const [row] = (await tx.query('SELECT EXISTS (SELECT 1 FROM users) AS found')) as Array<{
      found: boolean;
    }>;
    return row.found;
  }

  existsWithEmail(email: string): Promise<boolean> {
    return this.users.existsBy({ email });
  }

  findByEmail(email: string): Promise<UserEntity | null> {
    return this.users.findOneBy({ email });
  }

  findById(id: string): Promise<UserEntity | null> {
    return this.users.findOneBy({ id });
  }

  async setPasswordHash(tx: Transaction, id: string, passwordHash: string): Promise<void> {
    await tx.update(UserEntity, { id }, { passwordHash });
  }
}
