import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { LessThan, Repository } from 'typeorm';
import { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import { Transaction } from '@/database/transaction';
import { AuditEntryEntity } from './audit-entry.entity';

/** What narrows a page of the audit log. */
export interface AuditFilter {
  actorId?: string;
  action?: string;
}

/** The `audit_entry` table: entries are only ever added (in the change's transaction) and read newest first. */
@Injectable()
export class AuditRepository {
  constructor(@InjectRepository(AuditEntryEntity) private readonly entries: Repository<AuditEntryEntity>) {}

  async insert(tx: Transaction, entry: AuditEntryEntity): Promise<void> {
    await tx.insert(AuditEntryEntity, {
      ...entry,
      details: entry.details as QueryDeepPartialEntity<Record<string, unknown>>,
    });
  }

  /** Up to `take` entries of the workspace older than `cursor` (an entry id), newest first. */
  page(
    workspaceId: string,
    cursor: string | undefined,
    take: number,
    filter: AuditFilter,
  ): Promise<AuditEntryEntity[]> {
    return this.entries.find({
      where: {
        workspaceId,
        ...(cursor ? { id: LessThan(cursor) } : {}),
        ...(filter.actorId ? { actorId: filter.actorId } : {}),
        ...(filter.action ? { action: filter.action } : {}),
      },
      order: { id: 'DESC' },
      take,
    });
  }
}
