import { ServiceUnavailableError } from './http-errors';

/** Socket errors of a database connection that could not be made or was lost. */
const CONNECTION_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
]);
/** PostgreSQL's own: shutting down, starting up, crashed, too many connections. */
const SERVER_CODES = new Set(['57P01', '57P02', '57P03', '53300']);
/** What pg and its pool say when a connection ends or cannot be had in time. */
const MESSAGES =
  /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Connection ended unexpectedly|Client was closed and is not queryable/;

/**
 * Whether a failure means the database cannot be reached now (refused, dropped, restarting), as opposed to a bug:
 * such a request gets 503 with Retry-After, and the pool recovers by itself when the database is back.
 * TypeORM wraps the driver's error in `driverError`; node's in `cause`.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  let current = error as
    { code?: unknown; message?: unknown; driverError?: unknown; cause?: unknown } | undefined;
  for (let depth = 0; current && typeof current === 'object' && depth < 4; depth++) {
    const code = typeof current.code === 'string' ? current.code : '';
    if (CONNECTION_CODES.has(code) || SERVER_CODES.has(code) || code.startsWith('08')) return true;
    if (typeof current.message === 'string' && MESSAGES.test(current.message)) return true;
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
