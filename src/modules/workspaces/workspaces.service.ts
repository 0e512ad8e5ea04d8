import { Injectable } from '@nestjs/common';
import { Clock } from '@/common/clock';
import { ulidId } from '@/common/ids';
import { Transaction, Transactions } from '@/database/transaction';
import { AuditService } from '../audit/audit.service';
import { Actor } from '../console-access/actor';
import { MembershipsRepository, WorkspaceWithRole } from './memberships.repository';
import { WorkspaceEntity } from './workspace.entity';
import { WorkspacesRepository } from './workspaces.repository';

export type { WorkspaceWithRole } from './memberships.repository';

@Injectable()
export class WorkspacesService {
  constructor(
    private readonly workspaces: WorkspacesRepository,
    private readonly memberships: MembershipsRepository,
    private readonly transactions: Transactions,
    private readonly audit: AuditService,
    private readonly clock: Clock,
  ) {}

  /** A new workspace with `ownerId` as its owner, inside the caller's transaction when one is given. */
  async create(
    actor: Actor,
    ownerId: string,
    name: string,
    transaction?: Transaction,
  ): Promise<WorkspaceEntity> {
    const now = this.clock.now();
    const workspace: WorkspaceEntity = {
      id: ulidId('org', now),
      name,
      createdAt: new Date(now),
      deletedAt: null,
    };
    const work = async (tx: Transaction) => {
      await this.workspaces.add(tx, workspace);
      await this.memberships.add(tx, {
        workspaceId: workspace.id,
        userId: ownerId,
        role: 'owner',
        createdAt: new Date(now),
      });
      await this.audit.record(tx, actor, {
        workspaceId: workspace.id,
        action: 'workspace.created',
        target: { type: 'workspace', id: workspace.id },
        details: { name },
      });
    };
    await (transaction ? work(transaction) : this.transactions.run(work));
    return workspace;
  }

  /** The person's workspaces, by name then id (the order opencode's CLI picks from). */
  listForUser(userId: string): Promise<WorkspaceWithRole[]> {
    return this.memberships.workspacesOfUser(userId);
  }

  get(id: string): Promise<WorkspaceEntity | null> {
    return this.workspaces.findLive(id);
  }
}
