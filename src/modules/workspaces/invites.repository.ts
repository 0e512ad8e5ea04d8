import { UsableInvite } from './usable-invite';
import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { IsNull, MoreThan, Repository } from 'typeorm';
import { execute } from '@/database/execute';
import { Transaction } from '@/database/transaction';
import type { Role } from '../console-access/console-principal';
import { InviteEntity } from './invite.entity';

/** An invitation consumed by its acceptance. */
export interface ConsumedInvite {
  id: string;
  workspace_id: string;
  role: Role;
}

/** The `invite` table: invitations by the hash of their token. */
@Injectable()
export class InvitesRepository {
  constructor(@InjectRepository(InviteEntity) private readonly invites: Repository<InviteEntity>) {}

  async add(tx: Transaction, invite: InviteEntity): Promise<void> {
    await tx.insert(InviteEntity, invite);
  }

  /** The workspace's open invitations (not accepted, revoked or expired at `now`), newest first. */
  pending(workspaceId: string, now: Date): Promise<InviteEntity[]> {
    return this.invites.find({
      where: { workspaceId, acceptedAt: IsNull(), revokedAt: IsNull(), expiresAt: MoreThan(now) },
      order: { createdAt: 'DESC' },
    });
  }

  /** Revokes the workspace's unused invitations to this email at `at`; true when there was one. */
  revokeUnusedForEmail(tx: Transaction, workspaceId: string, email: string, at: Date): Promise<boolean> {
    return this.revokeUnused(tx, { workspaceId, email }, at);
  }

  /** Revokes the workspace's invitation unless used or revoked already; false when there is no such one. */
  revokeUnusedById(tx: Transaction, workspaceId: string, id: string, at: Date): Promise<boolean> {
    return this.revokeUnused(tx, { id, workspaceId }, at);
  }

  private async revokeUnused(
    tx: Transaction,
    where: Pick<InviteEntity, 'workspaceId'> & Partial<Pick<InviteEntity, 'id' | 'email'>>,
    at: Date,
  ): Promise<boolean> {
    const result = await tx.update(
      InviteEntity,
      { ...where, acceptedAt: IsNull(), revokedAt: IsNull() },
      { revokedAt: at },
    );
    return (result.affected ?? 0) > 0;
  }

  /** The workspace name, email and role of a usable invitation (at `now`, in a live workspace), else undefined. */
  /** A usable invitation as its page shows it: the workspace, the email and role, who sent it. */
  async describeUsable(tokenHash: string, now: Date): Promise<UsableInvite | undefined> {
    const [row] = (await this.invites.query(
      `SELECT w.name AS workspace, i.email, i.role, u.name AS inviter_name, u.email AS inviter_email
         FROM invite i JOIN workspace w ON w.id = i.workspace_id LEFT JOIN users u ON u.id = i.invited_by
        WHERE i.token_hash = $1 AND i.accepted_at IS NULL AND i.revoked_at IS NULL AND i.expires_at > $2
          AND w.deleted_at IS NULL`,
      [tokenHash, now],
    )) as Array<{
      workspace: string;
      email: string;
      role: Role;
      inviter_name: string | null;
      inviter_email: string | null;
    }>;
    if (!row) return undefined;
    const { inviter_name: name, inviter_email: email, ...invite } = row;
    return { ...invite, invitedBy: email ? { name: name || email, email } : undefined };
  }

  /**
   * Marks the usable invitation with this token and email accepted at `now`, in one atomic UPDATE, so it is used
   * once; undefined when there is none.
   */
  async consume(
    tx: Transaction,
    tokenHash: string,
    email: string,
    now: Date,
  ): Promise<ConsumedInvite | undefined> {
    const { rows: consumed } = await execute<ConsumedInvite>(
      tx,
      `UPDATE invite SET accepted_at = $3
        WHERE token_hash = $1 AND email = $2 AND accepted_at IS NULL AND revoked_at IS NULL AND expires_at > $3
        RETURNING id, workspace_id, role`,
      [tokenHash, email, now],
    );
    return consumed[0];
  }

  /** The invitation with this token, whatever its state, read in `tx`. */
  findByTokenHash(tx: Transaction, tokenHash: string): Promise<InviteEntity | null> {
    return tx.findOneBy(InviteEntity, { tokenHash });
  }
}
