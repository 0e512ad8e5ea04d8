import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { IsNull, Repository } from 'typeorm';
import { Transaction } from '@/database/transaction';
import { WorkspaceEntity } from './workspace.entity';

/** The `workspace` table: workspaces, deleted by setting `deleted_at`. */
@Injectable()
export class WorkspacesRepository {
  constructor(@InjectRepository(WorkspaceEntity) private readonly workspaces: Repository<WorkspaceEntity>) {}

  async add(tx: Transaction, workspace: WorkspaceEntity): Promise<void> {
    await tx.insert(WorkspaceEntity, workspace);
  }

  /** The workspace unless deleted (read in `tx` when given); null when there is none by that id. */
  findLive(id: string, tx: Transaction = this.workspaces.manager): Promise<WorkspaceEntity | null> {
    return tx.findOneBy(WorkspaceEntity, { id, deletedAt: IsNull() });
  }
}
