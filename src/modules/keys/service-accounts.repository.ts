import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { IsNull, Repository } from 'typeorm';
import { Transaction } from '@/database/transaction';
import { ServiceAccountEntity } from './service-account.entity';

/** The `service_account` table: a workspace's service accounts, removed by setting `deleted_at`. */
@Injectable()
export class ServiceAccountsRepository {
  constructor(
    @InjectRepository(ServiceAccountEntity) private readonly accounts: Repository<ServiceAccountEntity>,
  ) {}

  async add(tx: Transaction, account: ServiceAccountEntity): Promise<void> {
    await tx.insert(ServiceAccountEntity, account);
  }

  /** The workspace's live accounts, by name then id. */
  liveOfWorkspace(workspaceId: string): Promise<ServiceAccountEntity[]> {
    return this.accounts.find({
      where: { workspaceId, deletedAt: IsNull() },
      order: { name: 'ASC', id: 'ASC' },
    });
  }

  /** The live account of the workspace; null when it has none by that id. */
  findLive(workspaceId: string, id: string): Promise<ServiceAccountEntity | null> {
    return this.accounts.findOneBy({ id, workspaceId, deletedAt: IsNull() });
  }

  /** The live account of the workspace, locked until `tx` ends; null when it has none by that id. */
  lockLive(tx: Transaction, workspaceId: string, id: string): Promise<ServiceAccountEntity | null> {
    return tx
      .getRepository(ServiceAccountEntity)
      .findOne({ where: { id, workspaceId, deletedAt: IsNull() }, lock: { mode: 'pessimistic_write' } });
  }

  async rename(tx: Transaction, id: string, name: string): Promise<void> {
    await tx.update(ServiceAccountEntity, { id }, { name });
  }

  /** Marks the live account of the workspace deleted at `at`; false when it has none by that id. */
  async markDeleted(tx: Transaction, workspaceId: string, id: string, at: Date): Promise<boolean> {
    const removed = await tx
      .createQueryBuilder()
      .update(ServiceAccountEntity)
      .set({ deletedAt: at })
      .where({ id, workspaceId, deletedAt: IsNull() })
      .execute();
    return Boolean(removed.affected);
  }
}
