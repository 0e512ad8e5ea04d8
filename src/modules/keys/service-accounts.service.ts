import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, IsNull } from 'typeorm';
import { Clock } from '@/common/clock';
import { ulidId } from '@/common/ids';
import { AuditService } from '../audit/audit.service';
import { Actor } from '../console-access/actor';
import { ConsoleNotFoundError } from '../console-access/console-access.errors';
import { ApiKeyEntity } from './api-key.entity';
import { ServiceAccountEntity } from './service-account.entity';

@Injectable()
export class ServiceAccountsService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly audit: AuditService,
    private readonly clock: Clock,
  ) {}

  async create(actor: Actor, workspaceId: string, name: string): Promise<ServiceAccountEntity> {
    const now = this.clock.now();
    const account: ServiceAccountEntity = {
      id: ulidId('sa', now),
      workspaceId,
      name,
      createdBy: actor.id ?? 'system',
      createdAt: new Date(now),
      deletedAt: null,
    };
    await this.db.transaction(async (manager) => {
      await manager.insert(ServiceAccountEntity, account);
      await this.audit.record(manager, actor, {
        workspaceId,
        action: 'service_account.created',
        target: { type: 'service_account', id: account.id },
        details: { name },
      });
    });
    return account;
  }

  list(workspaceId: string): Promise<ServiceAccountEntity[]> {
    return this.db
      .getRepository(ServiceAccountEntity)
      .find({ where: { workspaceId, deletedAt: IsNull() }, order: { name: 'ASC', id: 'ASC' } });
  }

  /** 404 unless the service account is live in this workspace. */
  async get(workspaceId: string, id: string): Promise<ServiceAccountEntity> {
    const account = await this.db
      .getRepository(ServiceAccountEntity)
      .findOneBy({ id, workspaceId, deletedAt: IsNull() });
    if (!account) throw new ConsoleNotFoundError(`Service account not found: ${id}`);
    return account;
  }

  /** Renames a live account; its keys, usage and budget stay. */
  async rename(actor: Actor, workspaceId: string, id: string, name: string): Promise<ServiceAccountEntity> {
    return this.db.transaction(async (manager) => {
      const account = await manager
        .getRepository(ServiceAccountEntity)
        .findOne({ where: { id, workspaceId, deletedAt: IsNull() }, lock: { mode: 'pessimistic_write' } });
      if (!account) throw new ConsoleNotFoundError(`Service account not found: ${id}`);
      if (account.name === name) return account;
      await manager.update(ServiceAccountEntity, { id }, { name });
      await this.audit.record(manager, actor, {
        workspaceId,
        action: 'service_account.renamed',
        target: { type: 'service_account', id },
        details: { name, previous_name: account.name },
      });
      return { ...account, name };
    });
  }

  /** Removes the account and revokes all its keys in one transaction. */
  async remove(actor: Actor, workspaceId: string, id: string): Promise<void> {
    const now = new Date(this.clock.now());
    await this.db.transaction(async (manager) => {
      const removed = await manager
        .createQueryBuilder()
        .update(ServiceAccountEntity)
        .set({ deletedAt: now })
        .where({ id, workspaceId, deletedAt: IsNull() })
        .execute();
      if (!removed.affected) throw new ConsoleNotFoundError(`Service account not found: ${id}`);
      const revoked = await manager
        .createQueryBuilder()
        .update(ApiKeyEntity)
        .set({ revokedAt: now })
        .where({ serviceAccountId: id, revokedAt: IsNull() })
        .execute();
      await this.audit.record(manager, actor, {
        workspaceId,
        action: 'service_account.deleted',
        target: { type: 'service_account', id },
        details: { revoked_keys: revoked.affected ?? 0 },
      });
    });
  }
}
