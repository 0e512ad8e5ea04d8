import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { poolQuery } from '@/database/pool-query';

/** A member's limits as stored: their own and the workspace default (micro-cents as text), or null. */
export interface LimitRow {
  custom: string | null;
  fallback: string | null;
}

/** The member's and the workspace's limits and what each has spent and holds this month (micro-cents as text). */
export type HeadroomRow = Record<
  'member_limit' | 'member_used' | 'member_held' | 'workspace_limit' | 'workspace_used' | 'workspace_held',
  string | null
>;

/**
 * This month's spend and holds of members, keys (under the key's id) and workspaces (`member_spend`,
 * `workspace_spend`) against their budgets: the gateway's holds, in one statement each, and the reads of what is
 * left. `month` is the first day of the current UTC month.
 */
@Injectable()
export class SpendRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** The member's own limit, the workspace default, and the member's spend of `month`. */
  async status(
    workspaceId: string,
    memberId: string,
    month: Date,
  ): Promise<LimitRow & { spent: string | null }> {
    const rows = (await this.db.query(
      `SELECT b.limit_micro_cents AS custom, d.default_limit_micro_cents AS fallback,
              CASE WHEN s.month = $3::date THEN s.spent_micro_cents ELSE 0 END AS spent
         FROM (SELECT 1) one
         LEFT JOIN member_budget b ON b.workspace_id = $1 AND b.member_id = $2
         LEFT JOIN workspace_budget d ON d.workspace_id = $1
         LEFT JOIN member_spend s ON s.workspace_id = $1 AND s.member_id = $2`,
      [workspaceId, memberId, month],
    )) as Array<LimitRow & { spent: string | null }>;
    return rows[0];
  }

  /**
   * `outpost_hold` (migration BudgetHoldLeases) for the member and the workspace, recorded against `nodeId`:
   * `held`, `held+workspace`, or the budget that refused (`member`, `workspace`).
   */
  async hold(
    nodeId: string,
    workspaceId: string,
    memberId: string,
    month: Date,
    amount: bigint,
  ): Promise<string> {
    const [{ outcome }] = await poolQuery<{ outcome: string }>(
      this.db,
      'SELECT outpost_hold($1, $2, $3, $4::date, $5::bigint) AS outcome',
      [nodeId, workspaceId, memberId, month, amount.toString()],
    );
    return outcome;
  }

  /** The member's and the workspace's limits and what is spent and held of `month`. */
  async headroom(workspaceId: string, memberId: string, month: Date): Promise<HeadroomRow> {
    const [row] = await poolQuery<HeadroomRow>(
      this.db,
      `SELECT COALESCE(b.limit_micro_cents, d.default_limit_micro_cents) AS member_limit,
              d.monthly_limit_micro_cents AS workspace_limit,
              CASE WHEN s.month = $3::date THEN s.spent_micro_cents + s.held_micro_cents ELSE 0 END AS member_used,
              CASE WHEN w.month = $3::date THEN w.spent_micro_cents + w.held_micro_cents ELSE 0 END AS workspace_used,
              CASE WHEN s.month = $3::date THEN s.held_micro_cents ELSE 0 END AS member_held,
              CASE WHEN w.month = $3::date THEN w.held_micro_cents ELSE 0 END AS workspace_held
         FROM (SELECT 1) one
         LEFT JOIN member_budget b ON b.workspace_id = $1 AND b.member_id = $2
         LEFT JOIN workspace_budget d ON d.workspace_id = $1
         LEFT JOIN member_spend s ON s.workspace_id = $1 AND s.member_id = $2
         LEFT JOIN workspace_spend w ON w.workspace_id = $1`,
      [workspaceId, memberId, month],
    );
    return row;
  }

  /** The workspace's monthly total, when it was set, and its spend of `month`. */
  async workspaceStatus(
    workspaceId: string,
    month: Date,
  ): Promise<{ lim: string | null; spent: string | null; updated_at: Date | null }> {
    const rows = await poolQuery<{ lim: string | null; spent: string | null; updated_at: Date | null }>(
      this.db,
      `SELECT d.monthly_limit_micro_cents AS lim, d.updated_at,
              (SELECT CASE WHEN month = $2::date THEN spent_micro_cents ELSE 0 END
                 FROM workspace_spend WHERE workspace_id = $1) AS spent
         FROM (SELECT 1) one LEFT JOIN workspace_budget d ON d.workspace_id = $1`,
      [workspaceId, month],
    );
    return rows[0];
  }

  /** What each member (and key) of the workspace spent in `month`. */
  spentIn(
    workspaceId: string,
    month: Date,
  ): Promise<Array<{ member_id: string; spent_micro_cents: string }>> {
    return this.db.query(
      'SELECT member_id, spent_micro_cents FROM member_spend WHERE workspace_id = $1 AND month = $2::date',
      [workspaceId, month],
    ) as Promise<Array<{ member_id: string; spent_micro_cents: string }>>;
  }

  /**
   * Holds `amount` against a key's budget of `limit` in one statement, recorded against `nodeId`: admitted only
   * while the month's spend plus what is held plus `amount` stays within it (the row lock serialises concurrent
   * holds, on every node). Answers whether it was held.
   */
  async holdKey(
    nodeId: string,
    workspaceId: string,
    keyId: string,
    month: Date,
    amount: bigint,
    limit: bigint,
  ): Promise<boolean> {
    const [{ held }] = await poolQuery<{ held: string }>(
      this.db,
      `WITH held AS (
         INSERT INTO member_spend AS s (workspace_id, member_id, month, spent_micro_cents, held_micro_cents)
         SELECT $2, $3, $4::date, 0, $5::bigint WHERE $5::bigint <= $6::bigint
         ON CONFLICT (workspace_id, member_id) DO UPDATE SET
           spent_micro_cents = CASE WHEN s.month < EXCLUDED.month THEN 0 ELSE s.spent_micro_cents END,
           held_micro_cents = CASE WHEN s.month < EXCLUDED.month THEN 0 ELSE s.held_micro_cents END
                              + EXCLUDED.held_micro_cents,
           month = GREATEST(s.month, EXCLUDED.month)
         WHERE CASE WHEN s.month < EXCLUDED.month THEN 0 ELSE s.spent_micro_cents + s.held_micro_cents END
               + EXCLUDED.held_micro_cents <= $6::bigint
         RETURNING 1
       ), recorded AS (
         SELECT outpost_hold_record($1, $2, $3, $4::date, $5::bigint, 0) FROM held
       )
       SELECT count(*) AS held FROM recorded`,
      [nodeId, workspaceId, keyId, month, amount.toString(), limit.toString()],
    );
    return Number(held) > 0;
  }

  /** Gives back `amount` of a key's hold taken by `nodeId`. */
  async releaseKey(nodeId: string, workspaceId: string, keyId: string, amount: bigint): Promise<void> {
    await poolQuery(
      this.db,
      `WITH node AS (
         UPDATE budget_hold SET member_held_micro_cents = GREATEST(0, member_held_micro_cents - $4::bigint)
          WHERE node_id = $1 AND workspace_id = $2 AND member_id = $3
       )
       UPDATE member_spend SET held_micro_cents = GREATEST(0, held_micro_cents - $4::bigint)
        WHERE workspace_id = $2 AND member_id = $3`,
      [nodeId, workspaceId, keyId, amount.toString()],
    );
  }

  /** What the key has spent and holds in `month` (0 without a row of that month). */
  async keyUsed(workspaceId: string, keyId: string, month: Date): Promise<{ used: bigint; held: bigint }> {
    const rows = await poolQuery<{ used: string; held: string }>(
      this.db,
      `SELECT CASE WHEN month = $3::date THEN spent_micro_cents + held_micro_cents ELSE 0 END AS used,
              CASE WHEN month = $3::date THEN held_micro_cents ELSE 0 END AS held
         FROM member_spend WHERE workspace_id = $1 AND member_id = $2`,
      [workspaceId, keyId, month],
    );
    return { used: BigInt(rows[0]?.used ?? 0), held: BigInt(rows[0]?.held ?? 0) };
  }
}
