import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { Transaction } from '@/database/transaction';
import type { Role } from '../console-access/console-principal';
import { MembershipEntity } from './membership.entity';
import { WorkspaceEntity } from './workspace.entity';

/** A workspace the person belongs to, with their role there. */
export interface WorkspaceWithRole {
  id: string;
  name: string;
  role: Role;
}

/** A person's membership as the members list shows it. */
export interface MemberPerson {
  user_id: string;
  email: string;
  name: string;
  role: Role;
}

/** The `membership` table: people's roles in workspaces. */
@Injectable()
export class MembershipsRepository {
  constructor(
    @InjectRepository(MembershipEntity) private readonly memberships: Repository<MembershipEntity>,
  ) {}

  async add(tx: Transaction, membership: MembershipEntity): Promise<void> {
    await tx.insert(MembershipEntity, membership);
  }

  /** The person's membership of the workspace, read in `tx`; null when they are not a member. */
  find(tx: Transaction, workspaceId: string, userId: string): Promise<MembershipEntity | null> {
    return tx.findOneBy(MembershipEntity, { workspaceId, userId });
  }

  /** The person's live workspaces with their role, by name then id. */
  workspacesOfUser(userId: string): Promise<WorkspaceWithRole[]> {
    return this.memberships
      .createQueryBuilder('m')
      .innerJoin(WorkspaceEntity, 'w', 'w.id = m.workspace_id AND w.deleted_at IS NULL')
      .select(['w.id AS id', 'w.name AS name', 'm.role AS role'])
      .where('m.user_id = :userId', { userId })
      .orderBy('w.name', 'ASC')
      .addOrderBy('w.id', 'ASC')
      .getRawMany<WorkspaceWithRole>();
  }

  /** The workspace's people with their email and name, by email. */
  async people(workspaceId: string): Promise<MemberPerson[]> {
    return (await this.memberships.query(
      `SELECT m.user_id, u.email, u.name, m.role FROM membership m JOIN users u ON u.id = m.user_id
        WHERE m.workspace_id = $1 ORDER BY u.email`,
      [workspaceId],
    )) as MemberPerson[];
  }

  /** Whether a person (`usr_…`) or a live service account (`sa_…`) belongs to the workspace. */
  async has(workspaceId: string, memberId: string): Promise<boolean> {
    const rows = (await this.memberships.query(
      `SELECT 1 FROM membership WHERE workspace_id = $1 AND user_id = $2
       UNION ALL
       SELECT 1 FROM service_account WHERE workspace_id = $1 AND id = $2 AND deleted_at IS NULL`,
      [workspaceId, memberId],
    )) as unknown[];
    return rows.length > 0;
  }

  /** Whether the person with this email is a member of the workspace, read in `tx`. */
  async hasEmail(tx: Transaction, workspaceId: string, email: string): Promise<boolean> {
    const [existing] = (await tx.query(
      `SELECT 1 FROM membership m JOIN users u ON u.id = m.user_id WHERE m.workspace_id = $1 AND u.email = $2`,
      [workspaceId, email],
    )) as unknown[];
    return Boolean(existing);
  }

  /** The workspace's memberships, locked until `tx` ends so two changes cannot both remove "the other" owner. */
  lockOfWorkspace(tx: Transaction, workspaceId: string): Promise<MembershipEntity[]> {
    return tx.find(MembershipEntity, { where: { workspaceId }, lock: { mode: 'pessimistic_write' } });
  }

  async changeRole(tx: Transaction, workspaceId: string, userId: string, role: Role): Promise<void> {
    await tx.update(MembershipEntity, { workspaceId, userId }, { role });
  }

  async remove(tx: Transaction, workspaceId: string, userId: string): Promise<void> {
    await tx.delete(MembershipEntity, { workspaceId, userId });
  }
}
