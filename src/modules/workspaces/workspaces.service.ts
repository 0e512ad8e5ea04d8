import { Injectable } from '@nestjs/common';
import { Clock } from '@/common/clock';
import { ulidId } from '@/common/ids';
import { Transaction, Transactions } from '@/database/transaction';
import { AuditService } from '../audit/audit.service';
import { Actor } from '../console-access/actor';
import { ConsoleNotFoundError } from '../console-access/console-access.errors';
import type { Role } from '../console-access/console-principal';
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

  /**
   * Adds the person to the workspace with `role` unless they belong to it already (their role stays as it is):
   * the membership an identity provider's sign-in gives (`OUTPOST_OIDC_WORKSPACE`). False when they belonged.
   */
  async addMember(
    actor: Actor,
    workspaceId: string,
    userId: string,
    role: Role,
    details: Record<string, unknown>,
    transaction?: Transaction,
  ): Promise<boolean> {
    const work = async (tx: Transaction) => {
      const workspace = await this.workspaces.findLive(workspaceId, tx);
      if (!workspace) throw new ConsoleNotFoundError(`Workspace not found: ${workspaceId}`);
      if (await this.memberships.find(tx, workspaceId, userId)) return false;
      await this.memberships.add(tx, { workspaceId, userId, role, createdAt: new Date(this.clock.now()) });
      await this.audit.record(tx, actor, {
        workspaceId,
        action: 'member.joined',
        target: { type: 'user', id: userId },
        details: { role, ...details },
      });
      return true;
    };
    return transaction ? work(transaction) : this.transactions.run(work);
  }

  /** The person's workspaces, by name then id (the order opencode's CLI picks from). */
  listForUser(userId: string): Promise<WorkspaceWithRole[]> {
    return this.memberships.workspacesOfUser(userId);
  }

  get(id: string): Promise<WorkspaceEntity | null> {
    return this.workspaces.findLive(id);
  }
}
