import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { FindOptionsWhere, IsNull, Repository } from 'typeorm';
import { Transaction } from '@/database/transaction';
import { ApiKeyEntity } from './api-key.entity';

/** Whose key: a service account's, or a person's own in a workspace. */
export type KeyOwner = { workspaceId: string } & ({ serviceAccountId: string } | { userId: string });

function ownerWhere(owner: KeyOwner): FindOptionsWhere<ApiKeyEntity> {
  return 'serviceAccountId' in owner
    ? { workspaceId: owner.workspaceId, serviceAccountId: owner.serviceAccountId }
    : { workspaceId: owner.workspaceId, userId: owner.userId, serviceAccountId: IsNull() };
}

/** The `api_key` table: keys of service accounts and people's own keys, by workspace. */
@Injectable()
export class ApiKeysRepository {
  constructor(@InjectRepository(ApiKeyEntity) private readonly keys: Repository<ApiKeyEntity>) {}

  async add(tx: Transaction, key: ApiKeyEntity): Promise<void> {
    await tx.insert(ApiKeyEntity, key);
  }

  /** The owner's keys, newest first. */
  ofOwner(owner: KeyOwner): Promise<ApiKeyEntity[]> {
    return this.keys.find({ where: ownerWhere(owner), order: { createdAt: 'DESC', id: 'DESC' } });
  }

  /** The owner's key, locked until `tx` ends; null when they have none by that id. */
  lockOfOwner(tx: Transaction, owner: KeyOwner, id: string): Promise<ApiKeyEntity | null> {
    return tx.findOne(ApiKeyEntity, {
      where: { ...ownerWhere(owner), id },
      lock: { mode: 'pessimistic_write' },
    });
  }

  /** Sets the given columns of the key. */
  async update(tx: Transaction, id: string, columns: Partial<ApiKeyEntity>): Promise<void> {
    await tx.update(ApiKeyEntity, { id }, columns);
  }

  async markRevoked(tx: Transaction, id: string, at: Date): Promise<void> {
    await tx.update(ApiKeyEntity, { id }, { revokedAt: at });
  }

  /** Revokes the service account's unrevoked keys at `at`; answers how many. */
  revokeAllOfServiceAccount(tx: Transaction, serviceAccountId: string, at: Date): Promise<number> {
    return this.revokeUnrevoked(tx, { serviceAccountId }, at);
  }

  /** Revokes the person's unrevoked keys in the workspace at `at`; answers how many. */
  revokeAllOfMember(tx: Transaction, workspaceId: string, userId: string, at: Date): Promise<number> {
    return this.revokeUnrevoked(tx, { workspaceId, userId }, at);
  }

  private async revokeUnrevoked(
    tx: Transaction,
    where: FindOptionsWhere<ApiKeyEntity>,
    at: Date,
  ): Promise<number> {
    const result = await tx
      .createQueryBuilder()
      .update(ApiKeyEntity)
      .set({ revokedAt: at })
      .where({ ...where, revokedAt: IsNull() })
      .execute();
    return result.affected ?? 0;
  }
}
