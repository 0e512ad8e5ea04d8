import { randomBytes } from 'node:crypto';
import { TaggedError } from './tagged-error';

/** Where a validation failure was found, in the v1 kinds opencode clients know. */
export type RequestPart = 'Body' | 'Query' | 'Params' | 'Headers' | 'Payload';

export class InvalidRequestError extends TaggedError {
  readonly status = 400;
  constructor(message: string, field?: string, kind: RequestPart = 'Body') {
    super(message, { kind, ...(field !== undefined ? { field } : {}) });
  }
}

export class UnauthorizedError extends TaggedError {
  readonly status = 401;
  constructor(message = 'Authentication required') {
    super(message);
  }
}

export class ForbiddenError extends TaggedError {
  readonly status = 403;
}

export class NotFoundError extends TaggedError {
  readonly status = 404;
}

export class ConflictError extends TaggedError {
  readonly status = 409;
  constructor(message: string, resource?: string) {
    super(message, resource !== undefined ? { resource } : {});
  }
}

export class PayloadTooLargeError extends TaggedError {
  readonly status = 413;
  /** `setting`: the variable an operator raises the limit with, named in the message when there is one. */
  constructor(limitBytes: number, setting?: string) {
    super(
      `Request body is larger than the limit of ${limitBytes} bytes${setting ? ` (${setting})` : ''}`,
      setting ? { limit: limitBytes, setting } : { limit: limitBytes },
    );
    // The rest of the body is never read: the connection closes after this answer.
    this.headers['Connection'] = 'close';
  }
}

export class TooManyRequestsError extends TaggedError {
  readonly status = 429;
  constructor(message: string, retryAfterSeconds: number) {
    super(message, { retryAfter: retryAfterSeconds });
    this.headers['Retry-After'] = String(retryAfterSeconds);
  }
}

/** An operation opencode's clients know that Outpost does not carry out (pseudo-terminals, sharing). */
export class NotSupportedError extends TaggedError {
  readonly status = 501;
  constructor(operation: string, reason: string) {
    super(`${operation} is not supported by Outpost: ${reason}`, { operation });
  }
}

/** The reference an unexpected failure's log line and its answer share (`err_<12 hex digits>`). */
export function errorRef(): string {
  return `err_${randomBytes(6).toString('hex')}`;
}

export class UnknownError extends TaggedError {
  readonly status = 500;
  constructor(ref: string, message = 'Unexpected server error. Check server logs for details.') {
    super(message, { ref });
  }
}

export class ServiceUnavailableError extends TaggedError {
  readonly status = 503;
  constructor(message: string, service?: string) {
    super(message, service !== undefined ? { service } : {});
  }
}

/**
 * A wait the server gave up on by a deadline of its own (a location that takes too long to load): 503 with
 * Retry-After in the spec's ServiceUnavailableError body. The error filter logs it with the request id, since
 * something in the server is stuck or slow.
 */
export class DeadlineExceededError extends ServiceUnavailableError {
  constructor(message: string, service: string, fields: Record<string, unknown> = {}, retryAfterSeconds = 5) {
    super(message, service);
    Object.assign(this.fields, fields);
    this.headers['Retry-After'] = String(retryAfterSeconds);
  }

  get tag(): string {
    return 'ServiceUnavailableError';
  }
}
