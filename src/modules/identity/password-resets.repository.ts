import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { IsNull, Repository } from 'typeorm';
import { execute } from '@/database/execute';
import { Transaction } from '@/database/transaction';
import { PasswordResetEntity } from './password-reset.entity';

/** The `password_reset` table: reset links by the hash of their token. */
@Injectable()
export class PasswordResetsRepository {
  constructor(
    @InjectRepository(PasswordResetEntity) private readonly resets: Repository<PasswordResetEntity>,
  ) {}

  /** Adds a link and ends the person's earlier unused ones: one open link per person. */
  async replace(reset: PasswordResetEntity): Promise<void> {
    await this.resets.manager.transaction(async (tx) => {
      await tx.delete(PasswordResetEntity, { userId: reset.userId, usedAt: IsNull() });
      await tx.insert(PasswordResetEntity, reset);
    });
  }

  /** Marks the usable link with this token used at `now`, in one atomic UPDATE; its person, or undefined. */
  async consume(tx: Transaction, tokenHash: string, now: Date): Promise<string | undefined> {
    const { rows } = await execute<{ user_id: string }>(
      tx,
      `UPDATE password_reset SET used_at = $2 WHERE token_hash = $1 AND used_at IS NULL AND expires_at > $2
        RETURNING user_id`,
      [tokenHash, now],
    );
    return rows[0]?.user_id;
  }

  find(tokenHash: string): Promise<PasswordResetEntity | null> {
    return this.resets.findOneBy({ tokenHash });
  }
}
