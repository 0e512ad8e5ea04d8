import {
  ConflictError,
  ForbiddenError,
  NotFoundError,
  TaggedError,
  UnauthorizedError,
} from '@/common/errors';

/** The console's own tags (`{ _tag: "Unauthorized" }` and so on), which opencode clients read. */
export class ConsoleUnauthorizedError extends UnauthorizedError {
  constructor(message = 'Missing, invalid, expired or revoked credential') {
    super(message);
  }

  override get tag(): string {
    return 'Unauthorized';
  }
}

export class ConsoleForbiddenError extends ForbiddenError {
  override get tag(): string {
    return 'Forbidden';
  }
}

export class ConsoleNotFoundError extends NotFoundError {
  override get tag(): string {
    return 'NotFound';
  }
}

export class ConsoleConflictError extends ConflictError {
  override get tag(): string {
    return 'Conflict';
  }
}

/** A user token (or a cookie on a route without a workspace in its path) sent without `x-org-id`. */
export class OrgRequiredError extends TaggedError {
  readonly status = 400;
  constructor() {
    super('This credential needs the x-org-id header naming the workspace (org_<id>)');
  }

  override get tag(): string {
    return 'OrgRequired';
  }
}

/** This node's secret key is not the one the database was set up with: it must not start (a boot error, one line). */
export class SecretKeyMismatchError extends Error {}
