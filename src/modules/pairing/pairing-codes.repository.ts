import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { IsNull, LessThan, MoreThan, Repository } from 'typeorm';
import { PairingCodeEntity } from './pairing-code.entity';

/** The `pairing_code` table: codes by their hash. */
@Injectable()
export class PairingCodesRepository {
  constructor(@InjectRepository(PairingCodeEntity) private readonly codes: Repository<PairingCodeEntity>) {}

  /** Adds a code, dropping the ones expired by `now`. */
  async add(codeHash: string, now: Date, expiresAt: Date): Promise<void> {
    await this.codes.delete({ expiresAt: LessThan(now) });
    await this.codes.insert({ codeHash, createdAt: now, expiresAt, usedAt: null });
  }

  /** Marks an unused, unexpired code used, in one statement: true for exactly one of many simultaneous calls. */
  async consume(codeHash: string, now: Date): Promise<boolean> {
    const consumed = await this.codes
      .createQueryBuilder()
      .update()
      .set({ usedAt: now })
      .where({ codeHash, usedAt: IsNull(), expiresAt: MoreThan(now) })
      .returning(['codeHash'])
      .execute();
    return Boolean(consumed.affected);
  }
}
