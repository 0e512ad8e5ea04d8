import { Injectable, OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { Clock } from '@/common/clock';
import { AuditService } from '../audit/audit.service';
import { Actor } from '../console-access/actor';
import { ConsoleNotFoundError } from '../console-access/console-access.errors';
import { Member, MembersService } from '../workspaces/members.service';
import { BudgetLimits } from './budget-limits';
import { HoldLease } from './hold-lease';
import { dollarsToMicroCents, utcMonth } from '@/common/money';
import { poolQuery } from '@/database/pool-query';
import { execute } from '@/database/execute';
import { AuditAction } from '../audit/audit-actions';
import { UsageQueryDto, UsageReportDto } from './dto/usage.dto';

/** One metered request, as the inference gateway reports it. */
export interface UsageInput {
  workspaceId: string;
  /** The person (`usr_…`) or service account (`sa_…`) the request is billed to. */
  memberId: string;
  keyId?: string | null;
  model: string;
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens?: number;
  cacheWriteTokens?: number;
  costMicroCents: bigint;
}

export interface BudgetStatus {
  limitMicroCents: bigint | null;
  spentMicroCents: bigint;
  exceeded: boolean;
  source: 'custom' | 'default' | null;
  /** The start of the next UTC month, when the spend starts again at zero. */
  resetsAt: Date;
}

/**
 * Admitted (and whether the member's and the workspace's rows hold the amount: not when no limit applies),
 * or refused, with the budget that refused it.
 */
export type HoldResult =
  | { held: true; memberHeld: boolean; workspaceHeld: boolean }
  | { held: false; refusedBy: 'member' | 'workspace' };

/** What a member may still spend this month: the tighter of their own budget and the workspace's. */
export interface Headroom {
  by: 'member' | 'workspace' | 'key';
  limit: bigint;
  /** The limit less this month's spend and what calls in flight hold (negative when overspent). */
  left: bigint;
  resetsAt: Date;
}

export interface MemberBudget extends BudgetStatus {
  member: Member;
  /** When the member's own budget was last set; null without one. */
  updatedAt: Date | null;
}

interface LimitRow {
  custom: string | null;
  fallback: string | null;
}

function statusOf(limits: LimitRow, spent: bigint, resetsAt: Date): BudgetStatus {
  const source = limits.custom !== null ? 'custom' : limits.fallback !== null ? 'default' : null;
  const limit = limits.custom ?? limits.fallback;
  const limitMicroCents = limit === null ? null : BigInt(limit);
  return {
    limitMicroCents,
    spentMicroCents: spent,
    exceeded: limitMicroCents !== null && spent >= limitMicroCents,
    source,
    resetsAt,
  };
}

/**
 * Monthly budgets of members and service accounts (UTC calendar months), and the usage they are spent on.
 * Exported for the inference gateway: `status()` before forwarding a request, `recordUsage()` after.
 */
@Injectable()
export class BudgetsService implements OnModuleInit {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly members: MembersService,
    private readonly audit: AuditService,
    private readonly clock: Clock,
    private readonly limits: BudgetLimits,
    private readonly lease: HoldLease,
  ) {}

  onModuleInit(): void {
    // A member who leaves loses their own budget; coming back, they start from the workspace default.
    this.members.onMemberRemoved(async (manager, workspaceId, userId) => {
      await manager.query('DELETE FROM member_budget WHERE workspace_id = $1 AND member_id = $2', [
        workspaceId,
        userId,
      ]);
    });
  }

  /**
   * Adds a usage row and the member's spend for the month in ONE statement: the spend row is created, added
   * to, or started again at this cost when the stored month is older (the UTC month boundary). A late row
   * of an earlier month is kept in the usage table without touching the newer month's spend.
   */
  async recordUsage(usage: UsageInput, releasedHold = 0n): Promise<{ spentMicroCents: bigint }> {
    const rows = (await this.db.query(
      `WITH recorded AS (
         INSERT INTO usage (workspace_id, member_id, key_id, model, input_tokens, output_tokens,
                            cache_read_tokens, cache_write_tokens, cost_micro_cents, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
         RETURNING workspace_id, member_id, cost_micro_cents,
                   date_trunc('month', created_at AT TIME ZONE 'UTC')::date AS month
       )
       INSERT INTO member_spend AS s (workspace_id, member_id, month, spent_micro_cents)
       SELECT workspace_id, member_id, month, cost_micro_cents FROM recorded
       ON CONFLICT (workspace_id, member_id) DO UPDATE SET
         spent_micro_cents = CASE
           WHEN s.month = EXCLUDED.month THEN s.spent_micro_cents + EXCLUDED.spent_micro_cents
           WHEN s.month < EXCLUDED.month THEN EXCLUDED.spent_micro_cents
           ELSE s.spent_micro_cents END,
         held_micro_cents = GREATEST(0, s.held_micro_cents - $11::bigint),
         month = GREATEST(s.month, EXCLUDED.month)
       RETURNING spent_micro_cents`,
      [
        usage.workspaceId,
        usage.memberId,
        usage.keyId ?? null,
        usage.model,
        usage.inputTokens,
        usage.outputTokens,
        usage.cacheReadTokens ?? 0,
        usage.cacheWriteTokens ?? 0,
        usage.costMicroCents.toString(),
        new Date(this.clock.now()),
        releasedHold.toString(),
      ],
    )) as Array<{ spent_micro_cents: string }>;
    return { spentMicroCents: BigInt(rows[0].spent_micro_cents) };
  }

  /** The member's limit, this month's spend and whether it is used up: one query. */
  async status(workspaceId: string, memberId: string): Promise<BudgetStatus> {
    const { start, next } = utcMonth(this.clock.now());
    const rows = (await this.db.query(
      `SELECT b.limit_micro_cents AS custom, d.default_limit_micro_cents AS fallback,
              CASE WHEN s.month = $3::date THEN s.spent_micro_cents ELSE 0 END AS spent
         FROM (SELECT 1) one
         LEFT JOIN member_budget b ON b.workspace_id = $1 AND b.member_id = $2
         LEFT JOIN workspace_budget d ON d.workspace_id = $1
         LEFT JOIN member_spend s ON s.workspace_id = $1 AND s.member_id = $2`,
      [workspaceId, memberId, start],
    )) as Array<LimitRow & { spent: string | null }>;
    return statusOf(rows[0], BigInt(rows[0].spent ?? 0), next);
  }

  /** Whether any monthly limit applies to the member (cached; see BudgetLimits). */
  limited(workspaceId: string, memberId: string): Promise<boolean> {
    return this.limits.apply(workspaceId, memberId);
  }

  /**
   * Holds `amount` against the member's monthly budget and, when it has one, the workspace's, in one call of
   * `outpost_hold` (migration BudgetHoldLeases): admitted only while spent plus held plus `amount` stays within
   * each limit; the row locks serialise concurrent holds, so concurrent requests never overspend. The hold is
   * recorded against this process's lease (HoldLease), so it is given back if the process dies.
   * A member no limit applies to is admitted without a round trip.
   */
  async hold(workspaceId: string, memberId: string, amount: bigint): Promise<HoldResult> {
    if (!(await this.limits.apply(workspaceId, memberId))) {
      return { held: true, memberHeld: false, workspaceHeld: false };
    }
    const { start } = utcMonth(this.clock.now());
    const [{ outcome }] = await poolQuery<{ outcome: string }>(
      this.db,
      'SELECT outpost_hold($1, $2, $3, $4::date, $5::bigint) AS outcome',
      [this.lease.nodeId, workspaceId, memberId, start, amount.toString()],
    );
    if (outcome === 'held' || outcome === 'held+workspace') {
      return { held: true, memberHeld: true, workspaceHeld: outcome === 'held+workspace' };
    }
    return { held: false, refusedBy: outcome === 'member' ? 'member' : 'workspace' };
  }

  /** The tighter of the member's and the workspace's budgets, as left this month; null when neither has a limit. */
  async headroom(workspaceId: string, memberId: string): Promise<Headroom | null> {
    const { start, next } = utcMonth(this.clock.now());
    const [row] = await poolQuery<
      Record<'member_limit' | 'member_used' | 'workspace_limit' | 'workspace_used', string | null>
    >(
      this.db,
      `SELECT COALESCE(b.limit_micro_cents, d.default_limit_micro_cents) AS member_limit,
              d.monthly_limit_micro_cents AS workspace_limit,
              CASE WHEN s.month = $3::date THEN s.spent_micro_cents + s.held_micro_cents ELSE 0 END AS member_used,
              CASE WHEN w.month = $3::date THEN w.spent_micro_cents + w.held_micro_cents ELSE 0 END AS workspace_used
         FROM (SELECT 1) one
         LEFT JOIN member_budget b ON b.workspace_id = $1 AND b.member_id = $2
         LEFT JOIN workspace_budget d ON d.workspace_id = $1
         LEFT JOIN member_spend s ON s.workspace_id = $1 AND s.member_id = $2
         LEFT JOIN workspace_spend w ON w.workspace_id = $1`,
      [workspaceId, memberId, start],
    );
    const rooms: Headroom[] = [];
    for (const by of ['member', 'workspace'] as const) {
      const limit = row[`${by}_limit`];
      if (limit === null) continue;
      const left = BigInt(limit) - BigInt(row[`${by}_used`] ?? 0);
      rooms.push({ by, limit: BigInt(limit), left, resetsAt: next });
    }
    return rooms.sort((a, b) => (a.left < b.left ? -1 : a.left > b.left ? 1 : 0))[0] ?? null;
  }

  /** The whole workspace's monthly limit and this month's spend. */
  async workspaceStatus(workspaceId: string): Promise<BudgetStatus & { updatedAt: Date | null }> {
    const { start, next } = utcMonth(this.clock.now());
    const rows = await poolQuery<{ lim: string | null; spent: string | null; updated_at: Date | null }>(
      this.db,
      `SELECT d.monthly_limit_micro_cents AS lim, d.updated_at,
              (SELECT CASE WHEN month = $2::date THEN spent_micro_cents ELSE 0 END
                 FROM workspace_spend WHERE workspace_id = $1) AS spent
         FROM (SELECT 1) one LEFT JOIN workspace_budget d ON d.workspace_id = $1`,
      [workspaceId, start],
    );
    const limit = rows[0].lim === null ? null : BigInt(rows[0].lim);
    const spent = BigInt(rows[0].spent ?? 0);
    return {
      limitMicroCents: limit,
      spentMicroCents: spent,
      exceeded: limit !== null && spent >= limit,
      source: null,
      resetsAt: next,
      updatedAt: rows[0].updated_at,
    };
  }

  /** Usage rows of [from, to) summed per member, key, model or UTC day, largest spend first (days in order). */
  async usageReport(workspaceId: string, query: UsageQueryDto): Promise<UsageReportDto> {
    const now = this.clock.now();
    const from = query.from ? new Date(query.from) : utcMonth(now).start;
    const to = query.to ? new Date(query.to) : new Date(now);
    const groupBy = query.group_by ?? 'member';
    const column = {
      member: 'member_id',
      key: "coalesce(key_id, 'session')",
      model: 'model',
      day: "to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD')",
    }[groupBy];
    const rows = (await this.db.query(
      `SELECT ${column} AS key, sum(cost_micro_cents)::text AS spent, sum(requests)::int AS requests,
              sum(input_tokens)::bigint::text AS input, sum(output_tokens)::bigint::text AS output
         FROM usage WHERE workspace_id = $1 AND created_at >= $2 AND created_at < $3
        GROUP BY 1 ORDER BY ${groupBy === 'day' ? '1' : 'sum(cost_micro_cents) DESC, 1'}`,
      [workspaceId, from, to],
    )) as Array<{ key: string; spent: string; requests: number; input: string; output: string }>;
    return {
      from: from.toISOString(),
      to: to.toISOString(),
      group_by: groupBy,
      data: rows.map((row) => ({
        key: row.key,
        spent_micro_cents: row.spent,
        requests: row.requests,
        input_tokens: Number(row.input),
        output_tokens: Number(row.output),
      })),
    };
  }

  /** Every member (people by email, then service accounts by name) with their budget for this month. */
  async list(workspaceId: string): Promise<MemberBudget[]> {
    const { start, next } = utcMonth(this.clock.now());
    const [members, custom, fallback, spent] = await Promise.all([
      this.members.list(workspaceId),
      this.db.query(
        'SELECT member_id, limit_micro_cents, updated_at FROM member_budget WHERE workspace_id = $1',
        [workspaceId],
      ) as Promise<Array<{ member_id: string; limit_micro_cents: string; updated_at: Date }>>,
      this.defaultLimit(workspaceId),
      this.db.query(
        'SELECT member_id, spent_micro_cents FROM member_spend WHERE workspace_id = $1 AND month = $2::date',
        [workspaceId, start],
      ) as Promise<Array<{ member_id: string; spent_micro_cents: string }>>,
    ]);
    const customOf = new Map(custom.map((row) => [row.member_id, row]));
    const spentOf = new Map(spent.map((row) => [row.member_id, BigInt(row.spent_micro_cents)]));
    return members.map((member) => {
      const own = customOf.get(member.userId);
      const limits = { custom: own?.limit_micro_cents ?? null, fallback: fallback.limit };
      return {
        member,
        ...statusOf(limits, spentOf.get(member.userId) ?? 0n, next),
        updatedAt: own?.updated_at ?? null,
      };
    });
  }

  async defaultLimit(workspaceId: string): Promise<{ limit: string | null; updatedAt: Date | null }> {
    const rows = (await this.db.query(
      'SELECT default_limit_micro_cents, updated_at FROM workspace_budget WHERE workspace_id = $1',
      [workspaceId],
    )) as Array<{ default_limit_micro_cents: string | null; updated_at: Date }>;
    return { limit: rows[0]?.default_limit_micro_cents ?? null, updatedAt: rows[0]?.updated_at ?? null };
  }

  private async requireMember(workspaceId: string, memberId: string): Promise<void> {
    if (!(await this.members.has(workspaceId, memberId))) {
      throw new ConsoleNotFoundError(`Member not found in this workspace: ${memberId}`);
    }
  }

  /** Sets the member's own budget; setting the same amount again changes nothing (and audits nothing). */
  async setMember(actor: Actor, workspaceId: string, memberId: string, dollars: number): Promise<void> {
    await this.requireMember(workspaceId, memberId);
    const limit = dollarsToMicroCents(dollars).toString();
    await this.db.transaction(async (manager) => {
      const changed = await execute(
        manager,
        `INSERT INTO member_budget (workspace_id, member_id, limit_micro_cents, updated_at, updated_by)
         VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT (workspace_id, member_id) DO UPDATE
           SET limit_micro_cents = EXCLUDED.limit_micro_cents, updated_at = EXCLUDED.updated_at,
               updated_by = EXCLUDED.updated_by
           WHERE member_budget.limit_micro_cents <> EXCLUDED.limit_micro_cents
         RETURNING member_id`,
        [workspaceId, memberId, limit, new Date(this.clock.now()), actor.id],
      );
      if (changed.count > 0) {
        await this.record(manager, actor, workspaceId, 'budget.member_set', memberId, limit);
      }
    });
    this.limits.forget();
  }

  /** Removes the member's own budget: back to the workspace default, or unlimited. */
  async clearMember(actor: Actor, workspaceId: string, memberId: string): Promise<void> {
    await this.requireMember(workspaceId, memberId);
    await this.db.transaction(async (manager) => {
      const removed = await execute(
        manager,
        'DELETE FROM member_budget WHERE workspace_id = $1 AND member_id = $2 RETURNING member_id',
        [workspaceId, memberId],
      );
      if (removed.count > 0) {
        await this.record(manager, actor, workspaceId, 'budget.member_cleared', memberId, null);
      }
    });
    this.limits.forget();
  }

  /** Sets (dollars) or removes (null: unlimited) the workspace default. */
  async setDefault(actor: Actor, workspaceId: string, dollars: number | null): Promise<void> {
    const limit = dollars === null ? null : dollarsToMicroCents(dollars).toString();
    await this.db.transaction(async (manager) => {
      const changed = await execute(
        manager,
        `INSERT INTO workspace_budget (workspace_id, default_limit_micro_cents, updated_at, updated_by)
         VALUES ($1, $2, $3, $4)
         ON CONFLICT (workspace_id) DO UPDATE
           SET default_limit_micro_cents = EXCLUDED.default_limit_micro_cents,
               updated_at = EXCLUDED.updated_at, updated_by = EXCLUDED.updated_by
           WHERE workspace_budget.default_limit_micro_cents IS DISTINCT FROM EXCLUDED.default_limit_micro_cents
         RETURNING workspace_id`,
        [workspaceId, limit, new Date(this.clock.now()), actor.id],
      );
      if (changed.count > 0) {
        await this.record(manager, actor, workspaceId, 'budget.default_set', workspaceId, limit);
      }
    });
    this.limits.forget();
  }

  /** Sets (dollars) or removes (null: unlimited) what the whole workspace may spend a month. */
  async setWorkspaceLimit(actor: Actor, workspaceId: string, dollars: number | null): Promise<void> {
    const limit = dollars === null ? null : dollarsToMicroCents(dollars).toString();
    await this.db.transaction(async (manager) => {
      const changed = await execute(
        manager,
        `INSERT INTO workspace_budget (workspace_id, monthly_limit_micro_cents, updated_at, updated_by)
         VALUES ($1, $2, $3, $4)
         ON CONFLICT (workspace_id) DO UPDATE
           SET monthly_limit_micro_cents = EXCLUDED.monthly_limit_micro_cents,
               updated_at = EXCLUDED.updated_at, updated_by = EXCLUDED.updated_by
           WHERE workspace_budget.monthly_limit_micro_cents IS DISTINCT FROM EXCLUDED.monthly_limit_micro_cents
         RETURNING workspace_id`,
        [workspaceId, limit, new Date(this.clock.now()), actor.id],
      );
      if (changed.count > 0) {
        await this.record(manager, actor, workspaceId, 'budget.workspace_set', workspaceId, limit);
      }
    });
    this.limits.forget();
  }

  private record(
    manager: EntityManager,
    actor: Actor,
    workspaceId: string,
    action: AuditAction,
    targetId: string,
    limit: string | null,
  ): Promise<void> {
    return this.audit.record(manager, actor, {
      workspaceId,
      action,
      target: { type: targetId === workspaceId ? 'workspace' : 'member', id: targetId },
      details: { limit_micro_cents: limit },
    });
  }
}
