import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { Transaction } from '@/database/transaction';
import { UserTokenEntity } from './user-token.entity';

/** The `user_token` table: a person's tokens. */
@Injectable()
export class UserTokensRepository {
  constructor(@InjectRepository(UserTokenEntity) private readonly tokens: Repository<UserTokenEntity>) {}

  async add(tx: Transaction, token: UserTokenEntity): Promise<void> {
    await tx.insert(UserTokenEntity, token);
  }

  /** A person's tokens, newest first. */
  ofUser(userId: string): Promise<UserTokenEntity[]> {
    return this.tokens.find({ where: { userId }, order: { createdAt: 'DESC', id: 'DESC' } });
  }

  /** The person's token, locked until `tx` ends; null when they have none by that id. */
  lockOfUser(tx: Transaction, id: string, userId: string): Promise<UserTokenEntity | null> {
    return tx.findOne(UserTokenEntity, { where: { id, userId }, lock: { mode: 'pessimistic_write' } });
  }

  async markRevoked(tx: Transaction, id: string, at: Date): Promise<void> {
    await tx.update(UserTokenEntity, { id }, { revokedAt: at });
  }
}
