import { TaggedError } from '@/common/errors';
import { microCentsToUsd } from '@/common/money';

/** What a budget refused: the request's worst case against what the budget has left this month. */
export interface BudgetRefusal {
  /** The most the request could cost: its input and every output token it may produce. */
  worst: bigint;
  /** The output tokens that worst case counts. */
  outputTokens: number;
  limit: bigint;
  /** What is left: the limit less this month's spend and what calls in flight hold. */
  left: bigint;
  resetsAt: Date;
}

/**
 * The member's (or service account's) monthly budget cannot cover this request's worst case. A 402 with
 * `x-should-retry: false`, so no SDK retries it (they retry 429s, the AI SDK without asking), and a message that
 * says what the request could cost, what is left and what to do.
 */
export class UserLimitError extends TaggedError {
  readonly status = 402;
  constructor(refusal: BudgetRefusal, whose = 'your monthly budget') {
    const { worst, outputTokens, limit, left, resetsAt } = refusal;
    const resets = resetsAt.toISOString().slice(0, 10);
    const remaining =
      left > 0n
        ? `${whose} has ${dollars(left)} left of ${dollars(limit)}`
        : `${whose} of ${dollars(limit)} is used up`;
    const output = outputTokens > 0 ? ` (with up to ${outputTokens} output tokens)` : '';
    super(
      `This request could cost up to ${dollars(worst)}${output}, and ${remaining} until ${resets}. ` +
        // Only output tokens can be asked for fewer: a search or an input-only call has nothing to lower.
        (left > 0n && outputTokens > 0 ? 'Lower max_tokens, or ask' : 'Ask') +
        ' a workspace owner or admin to raise the budget.',
      {
        resets_at: resetsAt.toISOString(),
        limit_usd: microCentsToUsd(limit),
        left_usd: microCentsToUsd(left > 0n ? left : 0n),
        max_cost_usd: microCentsToUsd(worst),
      },
    );
    this.headers['x-should-retry'] = 'false';
  }
}

/** The whole workspace's monthly budget cannot cover this request's worst case. */
export class WorkspaceLimitError extends UserLimitError {
  constructor(refusal: BudgetRefusal) {
    super(refusal, "the workspace's monthly budget");
  }
}

/** Dollars for people: cents when it is that much, else as many digits as it takes (`$0.0018`). */
export function dollars(microCents: bigint): string {
  const usd = microCentsToUsd(microCents < 0n ? 0n : microCents);
  const [whole, fraction = ''] = usd.split('.');
  return `$${whole}.${fraction.length <= 2 ? fraction.padEnd(2, '0') : fraction}`;
}

/** The workspace's policies (`provider.use` statements) do not let it use this provider or model. */
export class ModelError extends TaggedError {
  readonly status = 403;
  constructor(model: string) {
    super(`The workspace's policies do not allow the model "${model}"`, { model });
  }
}

export class ModelNotFoundError extends TaggedError {
  readonly status = 404;
  constructor(model: string) {
    super(`No model "${model}" in this gateway's catalogue`, { model });
  }
}

export class InvalidInferenceRequestError extends TaggedError {
  readonly status = 400;
  constructor(field: string, message: string) {
    super(`${field}: ${message}`, { field });
  }
}

/** The provider failed (5xx), was unreachable, or is not set up (no credential). */
export class UpstreamError extends TaggedError {
  readonly status = 502;
  constructor(message: string, upstreamStatus?: number) {
    super(message, upstreamStatus !== undefined ? { upstream_status: upstreamStatus } : {});
  }
}

/** A model call that came back to this gateway (a connection or provider pointing at the gateway itself). */
export class GatewayLoopError extends TaggedError {
  readonly status = 508;
  constructor() {
    super(
      'This model call has already passed through this gateway: a connection or provider points back at it',
    );
  }
}

/** The workspace config enables no web search (`websearch.providerID`). */
export class SearchNotEnabledError extends TaggedError {
  readonly status = 404;
  constructor() {
    super(
      'This workspace has no web search: an owner or admin adds a search provider and names it in the config’s websearch.providerID',
    );
  }
}
