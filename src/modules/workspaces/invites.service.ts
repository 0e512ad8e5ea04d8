import { Injectable } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { Clock } from '@/common/clock';
import { ulidId } from '@/common/ids';
import { Transaction, Transactions } from '@/database/transaction';
import { AuditService } from '../audit/audit.service';
import { MailService } from '../mail/mail.service';
import { sha256 } from '@/common/hash';
import { Actor } from '../console-access/actor';
import {
  ConsoleConflictError,
  ConsoleForbiddenError,
  ConsoleNotFoundError,
} from '../console-access/console-access.errors';
import { ConsolePrincipal, Role } from '../console-access/console-principal';
import { InviteEntity } from './invite.entity';
import { InvitesRepository } from './invites.repository';
import { UsableInvite } from './usable-invite';
import { MembershipsRepository, WorkspaceWithRole } from './memberships.repository';
import { WorkspacesRepository } from './workspaces.repository';

export const INVITE_LIFETIME_MS = 7 * 24 * 3600_000;

export const normalizeEmail = (email: string) => email.trim().toLowerCase();

@Injectable()
export class InvitesService {
  constructor(
    private readonly invites: InvitesRepository,
    private readonly memberships: MembershipsRepository,
    private readonly workspaces: WorkspacesRepository,
    private readonly transactions: Transactions,
    private readonly audit: AuditService,
    private readonly clock: Clock,
    private readonly mail: MailService,
  ) {}

  /**
   * Invites an email; replaces an earlier pending invitation for it. Returns the link (shown once), sent by email
   * too when the console has an SMTP server (`emailed`).
   */
  async create(
    principal: ConsolePrincipal,
    actor: Actor,
    workspaceId: string,
    emailInput: string,
    role: Role,
    linkBase: string,
  ): Promise<{ invite: InviteEntity; url: string; replaced: boolean; emailed: boolean }> {
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
    await this.transactions.run(async (tx) => {
      const existing = await this.memberships.hasEmail(tx, workspaceId, email);
      // Inviting a member again would at best do nothing and at worst change their role (opencode#43922).
      if (existing)
        throw new ConsoleConflictError(`${email} is already a member of this workspace`, 'member');
      // An earlier link to the same email stops working: one open invitation per person, and the log says so.
      replaced = await this.invites.revokeUnusedForEmail(tx, workspaceId, email, new Date(now));
      await this.invites.add(tx, invite);
      await this.audit.record(tx, actor, {
        workspaceId,
        action: 'member.invited',
        target: { type: 'invite', id: invite.id },
        details: { email, role, ...(replaced ? { replaced_earlier_link: true } : {}) },
      });
    });
    const url = `${linkBase}/console/invites/${token}`;
    // After the commit: the email never points to an invitation that does not exist.
    const emailed = this.mail.enabled && (await this.sendInvitation(invite, url, principal));
    return { invite, url, replaced, emailed };
  }

  private async sendInvitation(
    invite: InviteEntity,
    url: string,
    principal: ConsolePrincipal,
  ): Promise<boolean> {
    const workspace = await this.workspaces.findLive(invite.workspaceId);
    const who = principal.name && principal.email ? `${principal.name} (${principal.email})` : 'Someone';
    const days = Math.round(INVITE_LIFETIME_MS / (24 * 3600_000));
    return this.mail.send({
      to: invite.email,
      subject: `You are invited to ${workspace?.name ?? 'a workspace'} on Outpost`,
      text: [
        `${who} invites you to join ${workspace?.name ?? 'a workspace'} as ${invite.role === 'member' ? 'a' : 'an'} ${invite.role} on the Outpost console.`,
        '',
        `Accept the invitation here (the link works once, for ${days} days):`,
        url,
      ].join('\n'),
    });
  }

  listPending(workspaceId: string): Promise<InviteEntity[]> {
    return this.invites.pending(workspaceId, new Date(this.clock.now()));
  }

  async revoke(actor: Actor, workspaceId: string, id: string): Promise<void> {
    await this.transactions.run(async (tx) => {
      const revoked = await this.invites.revokeUnusedById(tx, workspaceId, id, new Date(this.clock.now()));
      if (!revoked) throw new ConsoleNotFoundError(`Invitation not found: ${id}`);
      await this.audit.record(tx, actor, {
        workspaceId,
        action: 'invite.revoked',
        target: { type: 'invite', id },
      });
    });
  }

  /** What an invitation page shows: the workspace and role of a usable invitation, else undefined. */
  describe(token: string): Promise<UsableInvite | undefined> {
    return this.invites.describeUsable(sha256(token), new Date(this.clock.now()));
  }

  /**
   * Joins the person to the invitation's workspace. The invitation is consumed by one atomic UPDATE that
   * also checks the email, so it is used once, only by the person it names.
   */
  async accept(
    token: string,
    person: { id: string; email: string },
    actor: Actor,
    transaction?: Transaction,
  ): Promise<WorkspaceWithRole> {
    const work = async (tx: Transaction): Promise<WorkspaceWithRole> => {
      const now = new Date(this.clock.now());
      const tokenHash = sha256(token);
      const invite = await this.invites.consume(tx, tokenHash, normalizeEmail(person.email), now);
      if (!invite) {
        const other = await this.invites.findByTokenHash(tx, tokenHash);
        const usable = other && !other.acceptedAt && !other.revokedAt && other.expiresAt > now;
        if (usable) throw new ConsoleForbiddenError('This invitation is for another email address');
        throw new ConsoleNotFoundError('Invitation not found, expired or already used');
      }
      const workspace = await this.workspaces.findLive(invite.workspace_id, tx);
      if (!workspace) throw new ConsoleNotFoundError('The workspace of this invitation no longer exists');
      const member = await this.memberships.find(tx, workspace.id, person.id);
      if (member) throw new ConsoleConflictError('You are already a member of this workspace', 'member');
      await this.memberships.add(tx, {
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
    return transaction ? work(transaction) : this.transactions.run(work);
  }
}
