import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { randomBytes } from 'node:crypto';
import { DataSource, EntityManager, IsNull, MoreThan } from 'typeorm';
import { Clock } from '@/common/clock';
import { ulidId } from '@/common/ids';
import { AuditService } from '../audit/audit.service';
import { sha256 } from '@/common/hash';
import { Actor } from '../console-access/actor';
import {
  ConsoleConflictError,
  ConsoleForbiddenError,
  ConsoleNotFoundError,
} from '../console-access/console-access.errors';
import { ConsolePrincipal, Role } from '../console-access/console-principal';
import { InviteEntity } from './invite.entity';
import { MembershipEntity } from './membership.entity';
import { WorkspaceEntity } from './workspace.entity';
import { WorkspaceWithRole } from './workspaces.service';
import { execute } from '@/database/execute';

export const INVITE_LIFETIME_MS = 7 * 24 * 3600_000;

export const normalizeEmail = (email: string) => email.trim().toLowerCase();

@Injectable()
export class InvitesService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly audit: AuditService,
    private readonly clock: Clock,
  ) {}

  /** Invites an email; replaces an earlier pending invitation for it. Returns the token (shown once). */
  async create(
    principal: ConsolePrincipal,
    actor: Actor,
    workspaceId: string,
    emailInput: string,
    role: Role,
  ): Promise<{ invite: InviteEntity; token: string; replaced: boolean }> {
    if (role === 'owner' && principal.role !== 'owner') {
      throw new ConsoleForbiddenError('Only owners can invite owners');
    }
    const email = normalizeEmail(emailInput);
    const now = this.clock.now();
    const token = randomBytes(32).toString('base64url');
    const invite: InviteEntity = {
      id: ulidId('inv', now),
      workspaceId,
      email,
      role,
      tokenHash: sha256(token),
      invitedBy: actor.id ?? 'system',
      createdAt: new Date(now),
      expiresAt: new Date(now + INVITE_LIFETIME_MS),
      acceptedAt: null,
      revokedAt: null,
    };
    let replaced = false;
    await this.db.transaction(async (manager) => {
      const [existing] = (await manager.query(
        `SELECT 1 FROM membership m JOIN users u ON u.id = m.user_id WHERE m.workspace_id = $1 AND u.email = $2`,
        [workspaceId, email],
      )) as unknown[];
      // Inviting a member again would at best do nothing and at worst change their role (opencode#43922).
      if (existing)
        throw new ConsoleConflictError(`${email} is already a member of this workspace`, 'member');
      // An earlier link to the same email stops working: one open invitation per person, and the log says so.
      const earlier = await manager.update(
        InviteEntity,
        { workspaceId, email, acceptedAt: IsNull(), revokedAt: IsNull() },
        { revokedAt: new Date(now) },
      );
      replaced = (earlier.affected ?? 0) > 0;
      await manager.insert(InviteEntity, invite);
      await this.audit.record(manager, actor, {
        workspaceId,
        action: 'member.invited',
        target: { type: 'invite', id: invite.id },
        details: { email, role, ...(replaced ? { replaced_earlier_link: true } : {}) },
      });
    });
    return { invite, token, replaced };
  }

  listPending(workspaceId: string): Promise<InviteEntity[]> {
    return this.db.getRepository(InviteEntity).find({
      where: {
        workspaceId,
        acceptedAt: IsNull(),
        revokedAt: IsNull(),
        expiresAt: MoreThan(new Date(this.clock.now())),
      },
      order: { createdAt: 'DESC' },
    });
  }

  async revoke(actor: Actor, workspaceId: string, id: string): Promise<void> {
    await this.db.transaction(async (manager) => {
      const result = await manager.update(
        InviteEntity,
        { id, workspaceId, acceptedAt: IsNull(), revokedAt: IsNull() },
        { revokedAt: new Date(this.clock.now()) },
      );
      if (!result.affected) throw new ConsoleNotFoundError(`Invitation not found: ${id}`);
      await this.audit.record(manager, actor, {
        workspaceId,
        action: 'invite.revoked',
        target: { type: 'invite', id },
      });
    });
  }

  /** What an invitation page shows: the workspace and role of a usable invitation, else undefined. */
  async describe(token: string): Promise<{ workspace: string; email: string; role: Role } | undefined> {
    const [row] = (await this.db.query(
      `SELECT w.name AS workspace, i.email, i.role FROM invite i JOIN workspace w ON w.id = i.workspace_id
        WHERE i.token_hash = $1 AND i.accepted_at IS NULL AND i.revoked_at IS NULL AND i.expires_at > $2
          AND w.deleted_at IS NULL`,
      [sha256(token), new Date(this.clock.now())],
    )) as Array<{ workspace: string; email: string; role: Role }>;
    return row;
  }

  /**
   * Joins the person to the invitation's workspace. The invitation is consumed by one atomic UPDATE that
   * also checks the email, so it is used once, only by the person it names.
   */
  async accept(
    token: string,
    person: { id: string; email: string },
    actor: Actor,
    manager?: EntityManager,
  ): Promise<WorkspaceWithRole> {
    const work = async (tx: EntityManager): Promise<WorkspaceWithRole> => {
      const now = new Date(this.clock.now());
      const tokenHash = sha256(token);
      const { rows: consumed } = await execute<{ id: string; workspace_id: string; role: Role }>(
        tx,
        `UPDATE invite SET accepted_at = $3
          WHERE token_hash = $1 AND email = $2 AND accepted_at IS NULL AND revoked_at IS NULL AND expires_at > $3
          RETURNING id, workspace_id, role`,
        [tokenHash, normalizeEmail(person.email), now],
      );
      const invite = consumed[0];
      if (!invite) {
        const other = await tx.findOneBy(InviteEntity, { tokenHash });
        const usable = other && !other.acceptedAt && !other.revokedAt && other.expiresAt > now;
        if (usable) throw new ConsoleForbiddenError('This invitation is for another email address');
        throw new ConsoleNotFoundError('Invitation not found, expired or already used');
      }
      const workspace = await tx.findOneBy(WorkspaceEntity, { id: invite.workspace_id, deletedAt: IsNull() });
      if (!workspace) throw new ConsoleNotFoundError('The workspace of this invitation no longer exists');
      const member = await tx.findOneBy(MembershipEntity, { workspaceId: workspace.id, userId: person.id });
      if (member) throw new ConsoleConflictError('You are already a member of this workspace', 'member');
      await tx.insert(MembershipEntity, {
        workspaceId: workspace.id,
        userId: person.id,
        role: invite.role,
        createdAt: now,
      });
      await this.audit.record(tx, actor, {
        workspaceId: workspace.id,
        action: 'member.joined',
        target: { type: 'user', id: person.id },
        details: { invite: invite.id, role: invite.role },
      });
      return { id: workspace.id, name: workspace.name, role: invite.role };
    };
    return manager ? work(manager) : this.db.transaction(work);
  }
}
