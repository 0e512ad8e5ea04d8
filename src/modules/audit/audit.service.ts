import { Injectable } from '@nestjs/common';
import { Clock } from '@/common/clock';
import { ascendingId } from '@/common/ids';
import { Transaction } from '@/database/transaction';
import { Actor } from '../console-access/actor';
import { AuditAction } from './audit-actions';
import { AuditEntryEntity } from './audit-entry.entity';
import { AuditFilter, AuditRepository } from './audit.repository';

export interface AuditChange {
  workspaceId: string | null;
  action: AuditAction;
  target: { type: string; id: string };
  /** Names, roles, permissions: never a key, token or password. */
  details?: Record<string, unknown>;
}

export interface AuditPage {
  entries: AuditEntryEntity[];
  nextCursor: string | null;
}

@Injectable()
export class AuditService {
  constructor(
    private readonly entries: AuditRepository,
    private readonly clock: Clock,
  ) {}

  /** Records a change inside the caller's transaction, so the entry exists exactly when the change does. */
  async record(tx: Transaction, actor: Actor, change: AuditChange): Promise<void> {
    const now = this.clock.now();
    await this.entries.insert(tx, {
      id: ascendingId('aud', now),
      workspaceId: change.workspaceId,
      actorType: actor.type,
      actorId: actor.id,
      action: change.action,
      targetType: change.target.type,
      targetId: change.target.id,
      details: change.details ?? {},
      sourceAddress: actor.sourceAddress,
      createdAt: new Date(now),
    });
  }

  /** Newest first; `cursor` is the id of the last entry of the previous page. */
  async list(
    workspaceId: string,
    cursor: string | undefined,
    limit: number,
    filter: AuditFilter = {},
  ): Promise<AuditPage> {
    const rows = await this.entries.page(workspaceId, cursor, limit + 1, filter);
    const entries = rows.slice(0, limit);
    return { entries, nextCursor: rows.length > limit ? entries[entries.length - 1].id : null };
  }
}
