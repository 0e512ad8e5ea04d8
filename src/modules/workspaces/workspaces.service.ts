import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, IsNull } from 'typeorm';
import { Clock } from '@/common/clock';
import { ulidId } from '@/common/ids';
import { AuditService } from '../audit/audit.service';
import { Actor } from '../console-access/actor';
import { Role } from '../console-access/console-principal';
import { MembershipEntity } from './membership.entity';
import { WorkspaceEntity } from './workspace.entity';

export interface WorkspaceWithRole {
  id: string;
  name: string;
  role: Role;
}

@Injectable()
export class WorkspacesService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly audit: AuditService,
    private readonly clock: Clock,
  ) {}

  /** A new workspace with `ownerId` as its owner, inside the caller's transaction when one is given. */
  async create(
    actor: Actor,
    ownerId: string,
    name: string,
    manager?: EntityManager,
  ): Promise<WorkspaceEntity> {
    const now = this.clock.now();
    const workspace: WorkspaceEntity = {
      id: ulidId('org', now),
      name,
      createdAt: new Date(now),
      deletedAt: null,
    };
    const work = async (tx: EntityManager) => {
      await tx.insert(WorkspaceEntity, workspace);
      await tx.insert(MembershipEntity, {
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
    await (manager ? work(manager) : this.db.transaction(work));
    return workspace;
  }

  /** The person's workspaces, by name then id (the order opencode's CLI picks from). */
  async listForUser(userId: string): Promise<WorkspaceWithRole[]> {
    const rows = await this.db
      .getRepository(MembershipEntity)
      .createQueryBuilder('m')
      .innerJoin(WorkspaceEntity, 'w', 'w.id = m.workspace_id AND w.deleted_at IS NULL')
      .select(['w.id AS id', 'w.name AS name', 'm.role AS role'])
      .where('m.user_id = :userId', { userId })
      .orderBy('w.name', 'ASC')
      .addOrderBy('w.id', 'ASC')
      .getRawMany<WorkspaceWithRole>();
    return rows;
  }

  async get(id: string): Promise<WorkspaceEntity | null> {
    return this.db.getRepository(WorkspaceEntity).findOneBy({ id, deletedAt: IsNull() });
  }
}
