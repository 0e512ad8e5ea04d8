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

  existsWithEmail(email: string): Promise<boolean> {
    return this.users.existsBy({ email });
  }

  findByEmail(email: string): Promise<UserEntity | null> {
    return this.users.findOneBy({ email });
  }
}
