import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { Clock } from '@/common/clock';
import { utcMonth } from '@/common/money';
import { poolQuery } from '@/database/pool-query';
import type { Headroom } from './budgets.service';
import { HoldLease } from './hold-lease';

/**
 * A key's own monthly budget (`monthly_budget_dollars` on the key). Its spend and holds live in `member_spend`
 * under the key's id (`key_…`, never a member's id), so holding, settling (UsageLedger adds every key's spend
 * beside its member's) and giving back a dead process's holds (HoldLease) are the member budget's own statements.
 */
@Injectable()
export class KeyBudgets {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly clock: Clock,
    private readonly lease: HoldLease,
  ) {}

  /**
   * Holds `amount` against the key's budget of `limit` in one statement: admitted only while this month's spend
   * plus what is held plus `amount` stays within it (the row lock serialises concurrent holds, on every node).
   */
  async hold(workspaceId: string, keyId: string, limit: bigint, amount: bigint): Promise<boolean> {
    const { start } = utcMonth(this.clock.now());
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
      [this.lease.nodeId, workspaceId, keyId, start, amount.toString(), limit.toString()],
    );
    return Number(held) > 0;
  }

  /** Gives back a hold no call will settle (the call was refused after it was taken). */
  async release(workspaceId: string, keyId: string, amount: bigint): Promise<void> {
    await poolQuery(
      this.db,
      `WITH node AS (
         UPDATE budget_hold SET member_held_micro_cents = GREATEST(0, member_held_micro_cents - $4::bigint)
          WHERE node_id = $1 AND workspace_id = $2 AND member_id = $3
       )
       UPDATE member_spend SET held_micro_cents = GREATEST(0, held_micro_cents - $4::bigint)
        WHERE workspace_id = $2 AND member_id = $3`,
      [this.lease.nodeId, workspaceId, keyId, amount.toString()],
    );
  }

  /** What the key's budget of `limit` has left this month, less what calls in flight hold. */
  async headroom(workspaceId: string, keyId: string, limit: bigint): Promise<Headroom> {
    const { start, next } = utcMonth(this.clock.now());
    const rows = await poolQuery<{ used: string }>(
      this.db,
      `SELECT CASE WHEN month = $3::date THEN spent_micro_cents + held_micro_cents ELSE 0 END AS used
         FROM member_spend WHERE workspace_id = $1 AND member_id = $2`,
      [workspaceId, keyId, start],
    );
    return { by: 'key', limit, left: limit - BigInt(rows[0]?.used ?? 0), resetsAt: next };
  }
}
