import { Injectable } from '@nestjs/common';
import { Clock } from '@/common/clock';
import { utcMonth } from '@/common/money';
import type { Headroom } from './budgets.service';
import { HoldLease } from './hold-lease';
import { SpendRepository } from './spend.repository';

/**
 * A key's own monthly budget (`monthly_budget_dollars` on the key). Its spend and holds live in `member_spend`
 * under the key's id (`key_…`, never a member's id), so holding, settling (UsageLedger adds every key's spend
 * beside its member's) and giving back a dead process's holds (HoldLease) are the member budget's own statements.
 */
@Injectable()
export class KeyBudgets {
  constructor(
    private readonly spend: SpendRepository,
    private readonly clock: Clock,
    private readonly lease: HoldLease,
  ) {}

  /**
   * Holds `amount` against the key's budget of `limit` in one statement: admitted only while this month's spend
   * plus what is held plus `amount` stays within it (the row lock serialises concurrent holds, on every node).
   */
  hold(workspaceId: string, keyId: string, limit: bigint, amount: bigint): Promise<boolean> {
    const { start } = utcMonth(this.clock.now());
    return this.spend.holdKey(this.lease.nodeId, workspaceId, keyId, start, amount, limit);
  }

  /** Gives back a hold no call will settle (the call was refused after it was taken). */
  release(workspaceId: string, keyId: string, amount: bigint): Promise<void> {
    return this.spend.releaseKey(this.lease.nodeId, workspaceId, keyId, amount);
  }

  /** What the key's budget of `limit` has left this month, less what calls in flight hold. */
  async headroom(workspaceId: string, keyId: string, limit: bigint): Promise<Headroom> {
    const { start, next } = utcMonth(this.clock.now());
    const { used, held } = await this.spend.keyUsed(workspaceId, keyId, start);
    return { by: 'key', limit, left: limit - used, held, resetsAt: next };
  }
}
