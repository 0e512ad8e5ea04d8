import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { execute } from '@/database/execute';
import { Transaction } from '@/database/transaction';
import type { Role } from '../console-access/console-principal';
import { DeviceSessionEntity } from './device-session.entity';
import { DeviceTokenEntity } from './device-token.entity';

/** An access token with its sign-in, person, and workspace (the bound one, or the one asked for). */
export interface AccessRow {
  session_id: string;
  token_expires_at: Date;
  session_revoked_at: Date | null;
  last_used_at: Date | null;
  bound_workspace_id: string | null;
  user_id: string;
  email: string;
  name: string;
  workspace_id: string | null;
  workspace_deleted_at: Date | null;
  role: Role | null;
}

/** What a refresh token's presentation did: consumed it (its sign-in), or revoked its sign-in. */
export interface RotationRow {
  consumed_session: string | null;
  revoked_session: string | null;
}

/** The `device_session` and `device_token` tables: device sign-ins and the tokens issued to them. */
@Injectable()
export class DeviceSessionsRepository {
  constructor(
    @InjectRepository(DeviceSessionEntity) private readonly sessions: Repository<DeviceSessionEntity>,
  ) {}

  async add(tx: Transaction, session: DeviceSessionEntity): Promise<void> {
    await tx.insert(DeviceSessionEntity, session);
  }

  async addTokens(tx: Transaction, tokens: DeviceTokenEntity[]): Promise<void> {
    await tx.insert(DeviceTokenEntity, tokens);
  }

  /** The sign-in (its id and client) a refresh token was issued to; undefined when the token is unknown. */
  async ownerOfRefreshToken(tokenHash: string): Promise<{ id: string; client_id: string } | undefined> {
    const [owner] = (await this.sessions.query(
      `SELECT s.id, s.client_id FROM device_token t JOIN device_session s ON s.id = t.session_id
        WHERE t.token_hash = $1 AND t.kind = 'refresh'`,
      [tokenHash],
    )) as Array<{ id: string; client_id: string }>;
    return owner;
  }

  /**
   * One statement decides: an unused, live refresh token is consumed at `now`; any other presentation of a known
   * token (used before) revokes its sign-in. Two racing requests serialise on the token's row: the second
   * re-checks `used_at IS NULL` after the first commits, consumes nothing, and revokes.
   */
  async rotateRefreshToken(tx: Transaction, tokenHash: string, now: Date): Promise<RotationRow> {
    const [row] = (await tx.query(
      `WITH consumed AS (
         UPDATE device_token t SET used_at = $2
          WHERE t.token_hash = $1 AND t.kind = 'refresh' AND t.used_at IS NULL AND t.expires_at > $2
            AND EXISTS (SELECT 1 FROM device_session s WHERE s.id = t.session_id AND s.revoked_at IS NULL)
          RETURNING t.session_id
       ), revoked AS (
         UPDATE device_session s SET revoked_at = $2
          WHERE NOT EXISTS (SELECT 1 FROM consumed) AND s.revoked_at IS NULL
            AND s.id = (SELECT session_id FROM device_token WHERE token_hash = $1 AND kind = 'refresh')
          RETURNING s.id
       )
       SELECT (SELECT session_id FROM consumed) AS consumed_session,
              (SELECT id FROM revoked) AS revoked_session`,
      [tokenHash, now],
    )) as RotationRow[];
    return row;
  }

  /** The sign-in, read in `tx`; fails when there is none by that id. */
  get(tx: Transaction, id: string): Promise<DeviceSessionEntity> {
    return tx.findOneByOrFail(DeviceSessionEntity, { id });
  }

  /** Records a use of the sign-in at `at` and moves its expiry to `expiresAt`. */
  async extend(tx: Transaction, id: string, at: Date, expiresAt: Date): Promise<void> {
    await tx.update(DeviceSessionEntity, { id }, { lastUsedAt: at, expiresAt });
  }

  /**
   * An access token by its hash in one query, joined to its sign-in, the person and the workspace (the bound
   * one, else `requestedOrg`) with the person's role there; undefined when the token is unknown.
   */
  async findAccess(tokenHash: string, requestedOrg: string | null): Promise<AccessRow | undefined> {
    const [row] = (await this.sessions.query(
      `SELECT s.id AS session_id, t.expires_at AS token_expires_at, s.revoked_at AS session_revoked_at,
              s.last_used_at, s.workspace_id AS bound_workspace_id, u.id AS user_id, u.email, u.name,
              w.id AS workspace_id, w.deleted_at AS workspace_deleted_at, m.role
         FROM device_token t
         JOIN device_session s ON s.id = t.session_id
         JOIN users u ON u.id = s.user_id
         LEFT JOIN workspace w ON w.id = COALESCE(s.workspace_id, $2::varchar)
         LEFT JOIN membership m ON m.workspace_id = w.id AND m.user_id = u.id
        WHERE t.token_hash = $1 AND t.kind = 'access'`,
      [tokenHash, requestedOrg],
    )) as AccessRow[];
    return row;
  }

  /** Sets the sign-in's last use to `now` unless it was used after `usedSince` already. */
  async touch(id: string, now: Date, usedSince: Date): Promise<void> {
    await this.sessions.query(
      `UPDATE device_session SET last_used_at = $2 WHERE id = $1 AND (last_used_at IS NULL OR last_used_at <= $3)`,
      [id, now, usedSince],
    );
  }

  /** The person's sign-ins not revoked nor expired at `now`, newest first. */
  liveOfUser(userId: string, now: Date): Promise<DeviceSessionEntity[]> {
    return this.sessions
      .createQueryBuilder('s')
      .where('s.user_id = :userId AND s.revoked_at IS NULL AND s.expires_at > :now', { userId, now })
      .orderBy('s.created_at', 'DESC')
      .addOrderBy('s.id', 'DESC')
      .getMany();
  }

  /** Revokes the person's live sign-in at `at`; what audit entries name of it, undefined when there was none. */
  async revokeOfUser(
    tx: Transaction,
    id: string,
    userId: string,
    at: Date,
  ): Promise<{ id: string; client_id: string; workspace_id: string | null } | undefined> {
    const { rows } = await execute<{ id: string; client_id: string; workspace_id: string | null }>(
      tx,
      `UPDATE device_session SET revoked_at = $3 WHERE id = $1 AND user_id = $2 AND revoked_at IS NULL
       RETURNING id, client_id, workspace_id`,
      [id, userId, at],
    );
    return rows[0];
  }
}
