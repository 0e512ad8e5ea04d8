import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { execute } from '@/database/execute';
import { poolQuery } from '@/database/pool-query';
import { Transaction } from '@/database/transaction';

/** A member's own limit, as stored (micro-cents as text). */
export interface MemberLimitRow {
  member_id: string;
  limit_micro_cents: string;
  updated_at: Date;
}

/** A limit being set (micro-cents as text; null: none), when and by whom. */
export interface LimitChange {
  limit: string | null;
  at: Date;
  by: string | null;
}

/** The two limits of a workspace's row: the members' default and the workspace's monthly total. */
type WorkspaceLimit = 'default_limit_micro_cents' | 'monthly_limit_micro_cents';

/**
 * The budgets set in a workspace: members' own monthly limits (`member_budget`) and the workspace's default and
 * total (`workspace_budget`). Writes answer whether they changed anything (setting the same limit again does not).
 */
@Injectable()
export class BudgetsRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** Whether the member's own limit, the workspace default or the workspace's total is set (hot path). */
  async limited(workspaceId: string, memberId: string): Promise<boolean> {
    const [row] = await poolQuery<{ limited: boolean }>(
      this.db,
      `SELECT b.limit_micro_cents IS NOT NULL OR d.default_limit_micro_cents IS NOT NULL
              OR d.monthly_limit_micro_cents IS NOT NULL AS limited
         FROM (SELECT 1) one
         LEFT JOIN member_budget b ON b.workspace_id = $1 AND b.member_id = $2
         LEFT JOIN workspace_budget d ON d.workspace_id = $1`,
      [workspaceId, memberId],
    );
    return row.limited;
  }

  /** The members' own limits in the workspace. */
  memberLimits(workspaceId: string): Promise<MemberLimitRow[]> {
    return this.db.query(
      'SELECT member_id, limit_micro_cents, updated_at FROM member_budget WHERE workspace_id = $1',
      [workspaceId],
    ) as Promise<MemberLimitRow[]>;
  }

  /** The workspace default (micro-cents as text) and when it was set; nulls without a row. */
  async defaultLimit(workspaceId: string): Promise<{ limit: string | null; updatedAt: Date | null }> {
    const rows = (await this.db.query(
      'SELECT default_limit_micro_cents, updated_at FROM workspace_budget WHERE workspace_id = $1',
      [workspaceId],
    )) as Array<{ default_limit_micro_cents: string | null; updated_at: Date }>;
    return { limit: rows[0]?.default_limit_micro_cents ?? null, updatedAt: rows[0]?.updated_at ?? null };
  }

  /** Sets the member's own limit; answers whether it changed. */
  async setMember(
    tx: Transaction,
    workspaceId: string,
    memberId: string,
    change: LimitChange,
  ): Promise<boolean> {
    const changed = await execute(
      tx,
      `INSERT INTO member_budget (workspace_id, member_id, limit_micro_cents, updated_at, updated_by)
         VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT (workspace_id, member_id) DO UPDATE
           SET limit_micro_cents = EXCLUDED.limit_micro_cents, updated_at = EXCLUDED.updated_at,
               updated_by = EXCLUDED.updated_by
           WHERE member_budget.limit_micro_cents <> EXCLUDED.limit_micro_cents
         RETURNING member_id`,
      [workspaceId, memberId, change.limit, change.at, change.by],
    );
    return changed.count > 0;
  }

  /** Removes the member's own limit; answers whether there was one. */
  async clearMember(tx: Transaction, workspaceId: string, memberId: string): Promise<boolean> {
    const removed = await execute(
      tx,
      'DELETE FROM member_budget WHERE workspace_id = $1 AND member_id = $2 RETURNING member_id',
      [workspaceId, memberId],
    );
    return removed.count > 0;
  }

  /** Removes the own limit of a member who leaves the workspace. */
  async removeMember(tx: Transaction, workspaceId: string, memberId: string): Promise<void> {
    await tx.query('DELETE FROM member_budget WHERE workspace_id = $1 AND member_id = $2', [
      workspaceId,
      memberId,
    ]);
  }

  /** Sets (or with null removes) the workspace default; answers whether it changed. */
  setDefault(tx: Transaction, workspaceId: string, change: LimitChange): Promise<boolean> {
    return this.setWorkspaceLimitColumn(tx, 'default_limit_micro_cents', workspaceId, change);
  }

  /** Sets (or with null removes) the workspace's monthly total; answers whether it changed. */
  setWorkspaceLimit(tx: Transaction, workspaceId: string, change: LimitChange): Promise<boolean> {
    return this.setWorkspaceLimitColumn(tx, 'monthly_limit_micro_cents', workspaceId, change);
  }

  private async setWorkspaceLimitColumn(
    tx: Transaction,
    column: WorkspaceLimit,
    workspaceId: string,
    change: LimitChange,
  ): Promise<boolean> {
    const changed = await execute(
      tx,
      `INSERT INTO workspace_budget (workspace_id, ${column}, updated_at, updated_by)
         VALUES ($1, $2, $3, $4)
         ON CONFLICT (workspace_id) DO UPDATE
           SET ${column} = EXCLUDED.${column},
               updated_at = EXCLUDED.updated_at, updated_by = EXCLUDED.updated_by
           WHERE workspace_budget.${column} IS DISTINCT FROM EXCLUDED.${column}
         RETURNING workspace_id`,
      [workspaceId, change.limit, change.at, change.by],
    );
    return changed.count > 0;
  }
}
