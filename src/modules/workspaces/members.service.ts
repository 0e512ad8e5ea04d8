import { Injectable } from '@nestjs/common';
import { Transaction, Transactions } from '@/database/transaction';
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
import { MembershipsRepository } from './memberships.repository';

export interface Member {
  userId: string;
  email: string | null;
  name: string;
  role: Role;
  kind: 'person' | 'service_account';
}

/** Runs inside a member's removal transaction, so credentials bound to the workspace end with it. */
export type MemberRemovedHook = (tx: Transaction, workspaceId: string, userId: string) => Promise<void>;

@Injectable()
export class MembersService {
  private readonly removalHooks: MemberRemovedHook[] = [];

  constructor(
    private readonly memberships: MembershipsRepository,
    private readonly transactions: Transactions,
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
    const people = await this.memberships.people(workspaceId);
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
  has(workspaceId: string, memberId: string): Promise<boolean> {
    return this.memberships.has(workspaceId, memberId);
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
    await this.transactions.run(async (tx) => {
      const members = await this.memberships.lockOfWorkspace(tx, workspaceId);
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
      await this.memberships.changeRole(tx, workspaceId, userId, role);
      await this.audit.record(tx, actor, {
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
    await this.transactions.run(async (tx) => {
      const members = await this.memberships.lockOfWorkspace(tx, workspaceId);
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
      const revokedKeys = await this.keys.revokePersonalKeys(tx, workspaceId, userId);
      for (const hook of this.removalHooks) await hook(tx, workspaceId, userId);
      await this.memberships.remove(tx, workspaceId, userId);
      await this.audit.record(tx, actor, {
        workspaceId,
        action: 'member.removed',
        target: { type: 'user', id: userId },
        details: { role: member.role, revoked_keys: revokedKeys },
      });
    });
  }
}
