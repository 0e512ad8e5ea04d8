import { Injectable } from '@nestjs/common';
import { TableChanges } from '@/database/table-changes';
import { BudgetsRepository } from './budgets.repository';

const BUDGET_TABLES = new Set(['*', 'member_budget', 'workspace_budget']);
const MAX_ENTRIES = 10_000;

/**
 * Whether any monthly limit applies to a member: their own, the workspace default, or the workspace's total.
 * Cached while `TableChanges` is live and dropped on any budget change committed by any process, so the
 * gateway's hot path takes a hold (one statement) only for members something can refuse.
 */
@Injectable()
export class BudgetLimits {
  private readonly limited = new Map<string, boolean>();
  private generation = 0;

  constructor(
    private readonly budgets: BudgetsRepository,
    private readonly changes: TableChanges,
  ) {
    changes.onChange((table) => {
      if (BUDGET_TABLES.has(table)) this.forget();
    });
  }

  /** Drops what is cached; budget writes of this process call it once committed, so they apply at once here. */
  forget(): void {
    this.generation++;
    this.limited.clear();
  }

  async apply(workspaceId: string, memberId: string): Promise<boolean> {
    const key = `${workspaceId}\n${memberId}`;
    const cached = this.changes.live ? this.limited.get(key) : undefined;
    if (cached !== undefined) return cached;
    const generation = this.generation;
    const limited = await this.budgets.limited(workspaceId, memberId);
    if (this.changes.live && generation === this.generation) {
      if (this.limited.size >= MAX_ENTRIES) this.limited.clear();
      this.limited.set(key, limited);
    }
    return limited;
  }
}
