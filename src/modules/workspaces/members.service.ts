import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { AuditService } from '../audit/audit.service';
import { Actor } from '../console-access/actor';
import {
  ConsoleConflictError,
  ConsoleForbiddenError,
  ConsoleNotFoundError,
} from '../console-access/console-access.errors';
import { ConsolePrincipal, Role, roleAtLeast } from '../console-access/console-principal';
import { ApiKeysService } from '../keys/api-keys.service';
import { ServiceAccountsService } from '../keys/service-accounts.service';
import { MembershipEntity } from './membership.entity';

export interface Member {
  userId: string;
  email: string | null;
  name: string;
  role: Role;
  kind: 'person' | 'service_account';
}

/** Runs inside a member's removal transaction, so credentials bound to the workspace end with it. */
export type MemberRemovedHook = (
  manager: EntityManager,
  workspaceId: string,
  userId: string,
) => Promise<void>;

@Injectable()
export class MembersService {
  private readonly removalHooks: MemberRemovedHook[] = [];

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly audit: AuditService,
    private readonly keys: ApiKeysService,
    private readonly serviceAccounts: ServiceAccountsService,
  ) {}

  /** For other modules (device sign-ins bound to a workspace, budgets) to end what a removed member held. */
  onMemberRemoved(hook: MemberRemovedHook): void {
    this.removalHooks.push(hook);
  }

  /** People (with their email) and then service accounts. */
  async list(workspaceId: string): Promise<Member[]> {
    const people = (await this.db.query(
      `SELECT m.user_id, u.email, u.name, m.role FROM membership m JOIN users u ON u.id = m.user_id
        WHERE m.workspace_id = $1 ORDER BY u.email`,
      [workspaceId],
    )) as Array<{ user_id: string; email: string; name: string; role: Role }>;
    const accounts = await this.serviceAccounts.list(workspaceId);
    return [
      ...people.map((p) => ({
        userId: p.user_id,
        email: p.email,
        name: p.name,
        role: p.role,
        kind: 'person' as const,
      })),
      ...accounts.map((a) => ({
        userId: a.id,
        email: null,
        name: a.name,
        role: 'member' as const,
        kind: 'service_account' as const,
      })),
    ];
  }

  /** Whether a person (`usr_…`) or a live service account (`sa_…`) belongs to the workspace. */
  async has(workspaceId: string, memberId: string): Promise<boolean> {
    const rows = (await this.db.query(
      `SELECT 1 FROM membership WHERE workspace_id = $1 AND user_id = $2
       UNION ALL
       SELECT 1 FROM service_account WHERE workspace_id = $1 AND id = $2 AND deleted_at IS NULL`,
      [workspaceId, memberId],
    )) as unknown[];
    return rows.length > 0;
  }

  /** Locks the workspace's memberships so two changes cannot both remove "the other" owner. */
  private async lockMembers(manager: EntityManager, workspaceId: string): Promise<MembershipEntity[]> {
    return manager.find(MembershipEntity, { where: { workspaceId }, lock: { mode: 'pessimistic_write' } });
  }

  private target(members: MembershipEntity[], userId: string): MembershipEntity {
    const member = members.find((m) => m.userId === userId);
    if (!member) throw new ConsoleNotFoundError(`Member not found: ${userId}`);
    return member;
  }

  private isLastOwner(members: MembershipEntity[], member: MembershipEntity): boolean {
    return member.role === 'owner' && members.filter((m) => m.role === 'owner').length === 1;
  }

  async changeRole(
    principal: ConsolePrincipal,
    actor: Actor,
    workspaceId: string,
    userId: string,
    role: Role,
  ): Promise<void> {
    await this.db.transaction(async (manager) => {
      const members = await this.lockMembers(manager, workspaceId);
      const member = this.target(members, userId);
      if ((role === 'owner' || member.role === 'owner') && principal.role !== 'owner') {
        throw new ConsoleForbiddenError('Only owners can make someone an owner or change an owner’s role');
      }
      if (member.role === role) return;
      if (this.isLastOwner(members, member)) {
        throw new ConsoleConflictError(
          'The last owner cannot be demoted; make someone else an owner first',
          'member',
        );
      }
      await manager.update(MembershipEntity, { workspaceId, userId }, { role });
      await this.audit.record(manager, actor, {
        workspaceId,
        action: 'member.role_changed',
        target: { type: 'user', id: userId },
        details: { from: member.role, to: role },
      });
    });
  }

  /** Removes a member (admins remove others, anyone may leave) and ends their keys for this workspace. */
  async remove(
    principal: ConsolePrincipal,
    actor: Actor,
    workspaceId: string,
    userId: string,
  ): Promise<void> {
    const leaving = principal.userId === userId;
    if (!leaving && !roleAtLeast(principal.role, 'admin')) {
      throw new ConsoleForbiddenError('Only owners and admins can remove other members');
    }
    await this.db.transaction(async (manager) => {
      const members = await this.lockMembers(manager, workspaceId);
      const member = this.target(members, userId);
      if (member.role === 'owner' && !leaving && principal.role !== 'owner') {
        throw new ConsoleForbiddenError('Only owners can remove an owner');
      }
      if (this.isLastOwner(members, member)) {
        throw new ConsoleConflictError(
          'The last owner cannot be removed; make someone else an owner first',
          'member',
        );
      }
      const revokedKeys = await this.keys.revokePersonalKeys(manager, workspaceId, userId);
      for (const hook of this.removalHooks) await hook(manager, workspaceId, userId);
      await manager.delete(MembershipEntity, { workspaceId, userId });
      await this.audit.record(manager, actor, {
        workspaceId,
        action: 'member.removed',
        target: { type: 'user', id: userId },
        details: { role: member.role, revoked_keys: revokedKeys },
      });
    });
  }
}
