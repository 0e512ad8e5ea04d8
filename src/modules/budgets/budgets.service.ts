import { Injectable, OnModuleInit } from '@nestjs/common';
import { Clock } from '@/common/clock';
import { AuditService } from '../audit/audit.service';
import { Actor } from '../console-access/actor';
import { ConsoleNotFoundError } from '../console-access/console-access.errors';
import { Member, MembersService } from '../workspaces/members.service';
import { BudgetLimits } from './budget-limits';
import { HoldLease } from './hold-lease';
import { dollarsToMicroCents, utcMonth } from '@/common/money';
import { Transaction, Transactions } from '@/database/transaction';
import { AuditAction } from '../audit/audit-actions';
import { UsageQueryDto, UsageReportDto } from './dto/usage.dto';
import { BudgetsRepository } from './budgets.repository';
import { LimitRow, SpendRepository } from './spend.repository';
import { UsageInput } from './usage-input';
import { UsageRepository } from './usage.repository';

export type { UsageInput } from './usage-input';

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
  /** What calls in flight hold of it: given back (less what they spend) as they settle. */
  held: bigint;
  resetsAt: Date;
}

export interface MemberBudget extends BudgetStatus {
  member: Member;
  /** When the member's own budget was last set; null without one. */
  updatedAt: Date | null;
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
    private readonly budgets: BudgetsRepository,
    private readonly spend: SpendRepository,
    private readonly usage: UsageRepository,
    private readonly transactions: Transactions,
    private readonly members: MembersService,
    private readonly audit: AuditService,
    private readonly clock: Clock,
    private readonly limits: BudgetLimits,
    private readonly lease: HoldLease,
  ) {}

  onModuleInit(): void {
    // A member who leaves loses their own budget; coming back, they start from the workspace default.
    this.members.onMemberRemoved((tx, workspaceId, userId) =>
      this.budgets.removeMember(tx, workspaceId, userId),
    );
  }

  /**
   * Adds a usage row and the member's spend for the month in ONE statement: the spend row is created, added
   * to, or started again at this cost when the stored month is older (the UTC month boundary). A late row
   * of an earlier month is kept in the usage table without touching the newer month's spend.
   */
  async recordUsage(usage: UsageInput, releasedHold = 0n): Promise<{ spentMicroCents: bigint }> {
    const spent = await this.usage.record(usage, new Date(this.clock.now()), releasedHold);
    return { spentMicroCents: BigInt(spent) };
  }

  /** The member's limit, this month's spend and whether it is used up: one query. */
  async status(workspaceId: string, memberId: string): Promise<BudgetStatus> {
    const { start, next } = utcMonth(this.clock.now());
    const row = await this.spend.status(workspaceId, memberId, start);
    return statusOf(row, BigInt(row.spent ?? 0), next);
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
    const outcome = await this.spend.hold(this.lease.nodeId, workspaceId, memberId, start, amount);
    if (outcome === 'held' || outcome === 'held+workspace') {
      return { held: true, memberHeld: true, workspaceHeld: outcome === 'held+workspace' };
    }
    return { held: false, refusedBy: outcome === 'member' ? 'member' : 'workspace' };
  }

  /** The tighter of the member's and the workspace's budgets, as left this month; null when neither has a limit. */
  async headroom(workspaceId: string, memberId: string): Promise<Headroom | null> {
    const { start, next } = utcMonth(this.clock.now());
    const row = await this.spend.headroom(workspaceId, memberId, start);
    const rooms: Headroom[] = [];
    for (const by of ['member', 'workspace'] as const) {
      const limit = row[`${by}_limit`];
      if (limit === null) continue;
      const left = BigInt(limit) - BigInt(row[`${by}_used`] ?? 0);
      rooms.push({ by, limit: BigInt(limit), left, held: BigInt(row[`${by}_held`] ?? 0), resetsAt: next });
    }
    return rooms.sort((a, b) => (a.left < b.left ? -1 : a.left > b.left ? 1 : 0))[0] ?? null;
  }

  /** The whole workspace's monthly limit and this month's spend. */
  async workspaceStatus(workspaceId: string): Promise<BudgetStatus & { updatedAt: Date | null }> {
    const { start, next } = utcMonth(this.clock.now());
    const row = await this.spend.workspaceStatus(workspaceId, start);
    const limit = row.lim === null ? null : BigInt(row.lim);
    const spent = BigInt(row.spent ?? 0);
    return {
      limitMicroCents: limit,
      spentMicroCents: spent,
      exceeded: limit !== null && spent >= limit,
      source: null,
      resetsAt: next,
      updatedAt: row.updated_at,
    };
  }

  /** Usage rows of [from, to) summed per member, key, model or UTC day, largest spend first (days in order). */
  async usageReport(workspaceId: string, query: UsageQueryDto): Promise<UsageReportDto> {
    const now = this.clock.now();
    const from = query.from ? new Date(query.from) : utcMonth(now).start;
    const to = query.to ? new Date(query.to) : new Date(now);
    const groupBy = query.group_by ?? 'member';
    const rows = await this.usage.report(workspaceId, groupBy, from, to);
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
      this.budgets.memberLimits(workspaceId),
      this.defaultLimit(workspaceId),
      this.spend.spentIn(workspaceId, start),
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

  defaultLimit(workspaceId: string): Promise<{ limit: string | null; updatedAt: Date | null }> {
    return this.budgets.defaultLimit(workspaceId);
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
    await this.transactions.run(async (tx) => {
      const at = new Date(this.clock.now());
      if (await this.budgets.setMember(tx, workspaceId, memberId, { limit, at, by: actor.id })) {
        await this.record(tx, actor, workspaceId, 'budget.member_set', memberId, limit);
      }
    });
    this.limits.forget();
  }

  /** Removes the member's own budget: back to the workspace default, or unlimited. */
  async clearMember(actor: Actor, workspaceId: string, memberId: string): Promise<void> {
    await this.requireMember(workspaceId, memberId);
    await this.transactions.run(async (tx) => {
      if (await this.budgets.clearMember(tx, workspaceId, memberId)) {
        await this.record(tx, actor, workspaceId, 'budget.member_cleared', memberId, null);
      }
    });
    this.limits.forget();
  }

  /** Sets (dollars) or removes (null: unlimited) the workspace default. */
  async setDefault(actor: Actor, workspaceId: string, dollars: number | null): Promise<void> {
    const limit = dollars === null ? null : dollarsToMicroCents(dollars).toString();
    await this.transactions.run(async (tx) => {
      const at = new Date(this.clock.now());
      if (await this.budgets.setDefault(tx, workspaceId, { limit, at, by: actor.id })) {
        await this.record(tx, actor, workspaceId, 'budget.default_set', workspaceId, limit);
      }
    });
    this.limits.forget();
  }

  /** Sets (dollars) or removes (null: unlimited) what the whole workspace may spend a month. */
  async setWorkspaceLimit(actor: Actor, workspaceId: string, dollars: number | null): Promise<void> {
    const limit = dollars === null ? null : dollarsToMicroCents(dollars).toString();
    await this.transactions.run(async (tx) => {
      const at = new Date(this.clock.now());
      if (await this.budgets.setWorkspaceLimit(tx, workspaceId, { limit, at, by: actor.id })) {
        await this.record(tx, actor, workspaceId, 'budget.workspace_set', workspaceId, limit);
      }
    });
    this.limits.forget();
  }

  private record(
    tx: Transaction,
    actor: Actor,
    workspaceId: string,
    action: AuditAction,
    targetId: string,
    limit: string | null,
  ): Promise<void> {
    return this.audit.record(tx, actor, {
      workspaceId,
      action,
      target: { type: targetId === workspaceId ? 'workspace' : 'member', id: targetId },
      details: { limit_micro_cents: limit },
    });
  }
}
