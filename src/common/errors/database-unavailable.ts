import { ServiceUnavailableError } from './http-errors';

/** Failures that mean no working database connection could be had (marked by the pool, database/watched-pool.ts). */
const withoutConnection = new WeakSet<object>();

/** Marks a failure as one of getting, or keeping, a working connection; answers it. */
export function markDatabaseUnavailable<T>(error: T): T {
  if (error !== null && typeof error === 'object') withoutConnection.add(error);
  return error;
}

/**
 * Whether a failure means no working database connection could be had, whatever its code or message: one the
 * pool marked (no connection could be made or taken: refused, not accepting connections, starting up, too many,
 * timed out; or the connection broke under the statement), or PostgreSQL ending the session (severity FATAL or
 * PANIC). Such a request gets 503 with Retry-After, and the pool recovers by itself when the database is back.
 * TypeORM wraps the driver's error in `driverError`; pg and node in `cause`.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  let current = error as { severity?: unknown; driverError?: unknown; cause?: unknown } | undefined;
  for (let depth = 0; current && typeof current === 'object' && depth < 4; depth++) {
    if (withoutConnection.has(current)) return true;
    if (current.severity === 'FATAL' || current.severity === 'PANIC') return true;
    current = (current.driverError ?? current.cause) as typeof current;
  }
  return false;
}

/** The database cannot be reached: try again in a few seconds. */
export class DatabaseUnavailableError extends ServiceUnavailableError {
  constructor(retryAfterSeconds = 5) {
    super('The database is unavailable right now; try again in a few seconds', 'database');
    this.headers['Retry-After'] = String(retryAfterSeconds);
  }

  get tag(): string {
    return 'ServiceUnavailableError';
  }
}
