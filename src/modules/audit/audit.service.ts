import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, LessThan, Repository } from 'typeorm';
import { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import { Clock } from '@/common/clock';
import { ascendingId } from '@/common/ids';
import { Actor } from '../console-access/actor';
import { AuditAction } from './audit-actions';
import { AuditEntryEntity } from './audit-entry.entity';

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
    @InjectRepository(AuditEntryEntity) private readonly entries: Repository<AuditEntryEntity>,
    private readonly clock: Clock,
  ) {}

  /** Records a change inside the caller's transaction, so the entry exists exactly when the change does. */
  async record(manager: EntityManager, actor: Actor, change: AuditChange): Promise<void> {
    const now = this.clock.now();
    await manager.insert(AuditEntryEntity, {
      id: ascendingId('aud', now),
      workspaceId: change.workspaceId,
      actorType: actor.type,
      actorId: actor.id,
      action: change.action,
      targetType: change.target.type,
      targetId: change.target.id,
      details: (change.details ?? {}) as QueryDeepPartialEntity<Record<string, unknown>>,
      sourceAddress: actor.sourceAddress,
      createdAt: new Date(now),
    });
  }

  /** Newest first; `cursor` is the id of the last entry of the previous page. */
  async list(
    workspaceId: string,
    cursor: string | undefined,
    limit: number,
    filter: { actorId?: string; action?: string } = {},
  ): Promise<AuditPage> {
    const rows = await this.entries.find({
      where: {
        workspaceId,
        ...(cursor ? { id: LessThan(cursor) } : {}),
        ...(filter.actorId ? { actorId: filter.actorId } : {}),
        ...(filter.action ? { action: filter.action } : {}),
      },
      order: { id: 'DESC' },
      take: limit + 1,
    });
    const entries = rows.slice(0, limit);
    return { entries, nextCursor: rows.length > limit ? entries[entries.length - 1].id : null };
  }
}
