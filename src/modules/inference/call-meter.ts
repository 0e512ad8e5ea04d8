import type { Settlement } from '../budgets/usage-journal';
import type { UsageInput } from '../budgets/budgets.service';
import type { Holds } from './call-budgets';
import type { CatalogueModel } from './gateway.config';
import { costOf, NO_USAGE, TokenUsage } from './usage';

type Part = Omit<Settlement, 'at' | 'requests'>;
type Who = Omit<
  UsageInput,
  'inputTokens' | 'outputTokens' | 'cacheReadTokens' | 'cacheWriteTokens' | 'costMicroCents'
>;

const minus = (a: TokenUsage, b: TokenUsage): TokenUsage => ({
  input: a.input - b.input,
  output: a.output - b.output,
  cacheRead: a.cacheRead - b.cacheRead,
  cacheWrite: a.cacheWrite - b.cacheWrite,
});
const min = (a: bigint, b: bigint) => (a < b ? a : b);

/**
 * The books of one model call: what it has been billed so far and what it still holds. A stream is billed as it
 * runs (`progress`, each record giving back as much of the hold as it bills, so spent plus held never grows), and
 * its last record (`final`) bills the rest at the provider's own figures and gives back the rest of the hold.
 */
export class CallMeter {
  private billed: TokenUsage = NO_USAGE;
  private billedCost = 0n;

  private readonly holds: Holds;
  /** The call holds part of a budget: its settlement is written before its answer ends (see GatewayService). */
  readonly budgeted: boolean;

  constructor(
    private model: CatalogueModel,
    private who: Who,
    holds: Holds,
  ) {
    this.holds = { ...holds };
    this.budgeted = holds.member > 0n || holds.workspace > 0n || holds.key > 0n;
  }

  /** What the call has been billed so far (micro-cents). */
  get billedSoFar(): bigint {
    return this.billedCost;
  }

  /** The model that serves the call (a route's deployment or fallback): its prices and id are billed. */
  serve(model: CatalogueModel): void {
    this.model = model;
    this.who = { ...this.who, model: model.id };
  }

  /** What was produced since the last record (`usage`: the whole call so far), or undefined when nothing new. */
  progress(usage: TokenUsage): Part | undefined {
    const cost = costOf(this.model, usage);
    if (cost <= this.billedCost) return undefined;
    return this.part(usage, cost, cost - this.billedCost);
  }

  /** The call's last record: the rest of its usage and cost, and the rest of its hold. */
  final(usage: TokenUsage, cost = costOf(this.model, usage)): Part {
    return this.part(usage, cost);
  }

  /** A record of `usage`, giving back up to `release` of each hold (all of them without one). */
  private part(usage: TokenUsage, cost: bigint, release?: bigint): Part {
    const delta = minus(usage, this.billed);
    const give = (kind: keyof Holds) => {
      const amount = release === undefined ? this.holds[kind] : min(release, this.holds[kind]);
      this.holds[kind] -= amount;
      return amount;
    };
    const { workspaceId, memberId, keyId, model } = this.who;
    const part: Part = {
      usage: {
        workspaceId,
        memberId,
        keyId,
        model,
        inputTokens: delta.input,
        outputTokens: delta.output,
        cacheReadTokens: delta.cacheRead,
        cacheWriteTokens: delta.cacheWrite,
        costMicroCents: cost - this.billedCost,
      },
      held: give('member'),
      workspaceHeld: give('workspace'),
      keyHeld: give('key'),
    };
    this.billed = usage;
    this.billedCost = cost;
    return part;
  }
}
