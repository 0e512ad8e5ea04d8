import { Inject, Injectable } from '@nestjs/common';
import { utcMonth } from '@/common/money';
import { BudgetsService, Headroom } from '../budgets/budgets.service';
import { KeyBudgets } from '../budgets/key-budgets';
import { UsageLedger } from '../budgets/usage-ledger';
import { ConsolePrincipal } from '../console-access/console-principal';
import { CatalogueModel, gatewayConfig, GatewayConfig } from './gateway.config';
import { BudgetRefusal, UserLimitError, WorkspaceLimitError } from './gateway.errors';
import { InferenceRequest } from './inference-request';
import { costOf, NO_USAGE } from './usage';

/** How often a waiting call looks again when no write of this node wakes it (holds given back by other nodes). */
const HOLD_RETRY_MS = 100;

/** What a call holds against each budget until it settles (0 where no limit applies). */
export interface Holds {
  member: bigint;
  workspace: bigint;
  key: bigint;
}

/** A call's budget check: what it may produce and what it holds. */
export interface Held {
  holds: Holds;
  /** The output limit written into the provider's request (a call sent without one, while a budget applies). */
  limit?: number;
}

/** The key's own monthly budget refused the call. */
export class KeyLimitError extends UserLimitError {
  constructor(refusal: BudgetRefusal) {
    super(refusal, "this key's monthly budget");
  }
}

/**
 * The budgets a gateway call must fit: its key's own (`monthly_budget_dollars`), its member's, its workspace's.
 * Its worst case (the input and every output token it may produce, at the dearest model that may serve it) is
 * held against each that has a limit; the key's first, given back when a later one refuses.
 */
@Injectable()
export class CallBudgets {
  constructor(
    @Inject(gatewayConfig.KEY) private readonly config: GatewayConfig,
    private readonly budgets: BudgetsService,
    private readonly keys: KeyBudgets,
    private readonly ledger: UsageLedger,
  ) {}

  /**
   * `model`: the dearest model that may serve; `maxOutput`: the least of theirs; `request`: what the caller asked
   * for (an embedding holds its input's cost only, a token count nothing). A call without an output limit gets one
   * while a budget applies (the least of the model's, the operator's default and what the budgets afford), so its
   * spend can never pass its hold.
   *
   * A call the budget could afford once the calls in flight give their holds back (they give back all but what
   * they spend) is not refused for their worst cases: it waits for them to settle (this node's next write, or
   * `HOLD_RETRY_MS` for other nodes'), for `holdWaitMs` (OUTPOST_GATEWAY_HOLD_WAIT_MS) at most, then is refused or, without an output limit,
   * sized to what is left. Only a budget whose real spend leaves no room refuses at once.
   */
  async hold(
    principal: ConsolePrincipal,
    model: CatalogueModel,
    maxOutput: number,
    inputTokens: number,
    request: Pick<InferenceRequest, 'maxTokens' | 'pays'>,
  ): Promise<Held> {
    if (request.pays === 'nothing') return { holds: { member: 0n, workspace: 0n, key: 0n } };
    const giveUpAt = performance.now() + this.config.holdWaitMs;
    for (;;) {
      const patient = performance.now() < giveUpAt;
      const outcome = await this.tryHold(principal, model, maxOutput, inputTokens, request, patient);
      if (!('refused' in outcome)) return outcome;
      if (!patient || !outcome.mayFit) throw outcome.refused;
      if (outcome.holdsInFlight) await this.ledger.nextWrite(HOLD_RETRY_MS);
    }
  }

  /**
   * One attempt. `patient`: a call without an output limit is sized as if the holds in flight were given back
   * (the caller waits for them rather than get a short answer). Refused, it says whether trying again may help
   * (the refusing budget would fit the call without its holds) and whether there are holds to wait for.
   */
  private async tryHold(
    principal: ConsolePrincipal,
    model: CatalogueModel,
    maxOutput: number,
    inputTokens: number,
    request: Pick<InferenceRequest, 'maxTokens' | 'pays'>,
    patient: boolean,
  ): Promise<Held | { refused: UserLimitError; mayFit: boolean; holdsInFlight: boolean }> {
    const { maxTokens } = request;
    const output = request.pays === 'output';
    const workspaceId = principal.workspaceId!;
    const memberId = principal.serviceAccountId ?? principal.userId!;
    const keyLimit = principal.controls?.monthlyBudgetMicroCents ?? null;
    let outputTokens = output ? (maxTokens ?? Math.min(maxOutput, model.maxOutput)) : 0;
    let limit: number | undefined;
    if (
      output &&
      maxTokens === undefined &&
      (keyLimit !== null || (await this.budgets.limited(workspaceId, memberId)))
    ) {
      const room = await this.room(principal, keyLimit);
      const sized = patient && room ? { ...room, left: room.left + room.held } : room;
      outputTokens = this.allowance(sized, { ...model, maxOutput }, inputTokens);
      limit = Math.max(outputTokens, 1);
    }
    const worst = costOf(model, { ...NO_USAGE, input: inputTokens, output: outputTokens });
    const refuse = async (by?: Headroom | null) => {
      const room = by ?? (await this.room(principal, keyLimit));
      const tokens = !output
        ? 0
        : outputTokens > 0
          ? outputTokens
          : (maxTokens ?? Math.min(maxOutput, this.config.defaultMaxTokens));
      const most = costOf(model, { ...NO_USAGE, input: inputTokens, output: tokens });
      // Read after the refusal: the holds that refused it may be given back already (then try again at once).
      // A call sized to the budget is sized again on the next try; one with its own limit must fit as it is.
      const withoutHolds = room && { ...room, left: room.left + room.held };
      const mayFit =
        withoutHolds !== null &&
        outputTokens > 0 &&
        (limit !== undefined
          ? this.allowance(withoutHolds, { ...model, maxOutput }, inputTokens) > 0
          : worst <= withoutHolds.left);
      return { refused: refusal(room, most, tokens), mayFit, holdsInFlight: (room?.held ?? 0n) > 0n };
    };
    if (output && outputTokens <= 0) return refuse();
    let key = 0n;
    if (keyLimit !== null) {
      if (!(await this.keys.hold(workspaceId, principal.credentialId, keyLimit, worst)))
        return refuse(await this.keys.headroom(workspaceId, principal.credentialId, keyLimit));
      key = worst;
    }
    const hold = await this.budgets.hold(workspaceId, memberId, worst);
    if (!hold.held) {
      if (key > 0n) await this.keys.release(workspaceId, principal.credentialId, key);
      return refuse(await this.budgets.headroom(workspaceId, memberId));
    }
    return {
      holds: { member: hold.memberHeld ? worst : 0n, workspace: hold.workspaceHeld ? worst : 0n, key },
      limit,
    };
  }

  /** The tightest of the key's, the member's and the workspace's budgets, as left this month. */
  private async room(principal: ConsolePrincipal, keyLimit: bigint | null): Promise<Headroom | null> {
    const workspaceId = principal.workspaceId!;
    const [member, key] = await Promise.all([
      this.budgets.headroom(workspaceId, principal.serviceAccountId ?? principal.userId!),
      keyLimit === null ? null : this.keys.headroom(workspaceId, principal.credentialId, keyLimit),
    ]);
    if (!member || !key) return member ?? key;
    return key.left < member.left ? key : member;
  }

  /** Output tokens a call without a limit may produce: the model's, the operator's default, what the budget affords. */
  private allowance(room: Headroom | null, model: CatalogueModel, inputTokens: number): number {
    const cap = Math.min(model.maxOutput, this.config.defaultMaxTokens);
    if (!room || model.prices.output === 0n) return cap;
    // costOf rounds up: the call costs at most `left` while input × price + output × price ≤ left × 10⁶.
    const spare = room.left * 1_000_000n - BigInt(inputTokens) * model.prices.input;
    if (spare <= 0n) return 0;
    const affordable = spare / model.prices.output;
    return affordable < BigInt(cap) ? Number(affordable) : cap;
  }
}

/** The budget refusal, saying what the call could cost and what the budget that refused has left. */
function refusal(room: Headroom | null, worst: bigint, outputTokens: number): UserLimitError {
  const { by, limit, left, resetsAt } = room ?? {
    by: 'member' as const,
    limit: 0n,
    left: 0n,
    held: 0n,
    resetsAt: utcMonth(Date.now()).next,
  };
  const refused = { worst, outputTokens, limit, left, resetsAt };
  if (by === 'key') return new KeyLimitError(refused);
  return by === 'workspace' ? new WorkspaceLimitError(refused) : new UserLimitError(refused);
}
