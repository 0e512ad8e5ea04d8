import { TaggedError } from '../../common/errors';

/** The member's (or service account's) monthly budget would be passed by this request's worst case. */
export class UserLimitError extends TaggedError {
  readonly status = 429;
  constructor(resetsAt: Date, limitMicroCents: bigint, spentMicroCents: bigint, whose = 'Monthly budget') {
    super(
      `${whose} reached: ${microCentsToUsd(spentMicroCents)} of ${microCentsToUsd(limitMicroCents)} USD spent; it resets ${resetsAt.toISOString()}`,
      { resets_at: resetsAt.toISOString() },
    );
  }
}

/** The whole workspace's monthly budget would be passed by this request's worst case. */
export class WorkspaceLimitError extends UserLimitError {
  constructor(resetsAt: Date, limitMicroCents: bigint, spentMicroCents: bigint) {
    super(resetsAt, limitMicroCents, spentMicroCents, "The workspace's monthly budget");
  }
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

export function microCentsToUsd(value: bigint): string {
  const negative = value < 0n;
  const abs = negative ? -value : value;
  const whole = abs / 100_000_000n;
  const fraction = (abs % 100_000_000n).toString().padStart(8, '0').replace(/0+$/, '');
  return `${negative ? '-' : ''}${whole}${fraction ? `.${fraction}` : ''}`;
}
