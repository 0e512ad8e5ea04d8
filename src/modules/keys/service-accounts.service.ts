import { Injectable } from '@nestjs/common';
import { Clock } from '@/common/clock';
import { ulidId } from '@/common/ids';
import { Transactions } from '@/database/transaction';
import { AuditService } from '../audit/audit.service';
import { Actor } from '../console-access/actor';
import { ConsoleNotFoundError } from '../console-access/console-access.errors';
import { ApiKeysRepository } from './api-keys.repository';
import { ServiceAccountEntity } from './service-account.entity';
import { ServiceAccountsRepository } from './service-accounts.repository';

@Injectable()
export class ServiceAccountsService {
  constructor(
    private readonly accounts: ServiceAccountsRepository,
    private readonly keys: ApiKeysRepository,
    private readonly transactions: Transactions,
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
    await this.transactions.run(async (tx) => {
      await this.accounts.add(tx, account);
      await this.audit.record(tx, actor, {
        workspaceId,
        action: 'service_account.created',
        target: { type: 'service_account', id: account.id },
        details: { name },
      });
    });
    return account;
  }

  list(workspaceId: string): Promise<ServiceAccountEntity[]> {
    return this.accounts.liveOfWorkspace(workspaceId);
  }

  /** 404 unless the service account is live in this workspace. */
  async get(workspaceId: string, id: string): Promise<ServiceAccountEntity> {
    const account = await this.accounts.findLive(workspaceId, id);
    if (!account) throw new ConsoleNotFoundError(`Service account not found: ${id}`);
    return account;
  }

  /** Renames a live account; its keys, usage and budget stay. */
  async rename(actor: Actor, workspaceId: string, id: string, name: string): Promise<ServiceAccountEntity> {
    return this.transactions.run(async (tx) => {
      const account = await this.accounts.lockLive(tx, workspaceId, id);
      if (!account) throw new ConsoleNotFoundError(`Service account not found: ${id}`);
      if (account.name === name) return account;
      await this.accounts.rename(tx, id, name);
      await this.audit.record(tx, actor, {
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
    await this.transactions.run(async (tx) => {
      const removed = await this.accounts.markDeleted(tx, workspaceId, id, now);
      if (!removed) throw new ConsoleNotFoundError(`Service account not found: ${id}`);
      const revoked = await this.keys.revokeAllOfServiceAccount(tx, id, now);
      await this.audit.record(tx, actor, {
        workspaceId,
        action: 'service_account.deleted',
        target: { type: 'service_account', id },
        details: { revoked_keys: revoked },
      });
    });
  }
}
