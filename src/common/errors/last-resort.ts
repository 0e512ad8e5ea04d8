import type { Logger } from 'pino';
import { loggableError } from '../http/redact';
import { errorRef } from './http-errors';

/**
 * The process's last resort for a promise rejected with no handler (a plugin's, a library's, a path we missed):
 * logged once with a `ref`, and the server keeps serving. Node's default would stop the process and every
 * request and stream in it. Returns the listener, so a caller can remove it.
 */
export function keepServingOnUnhandledRejection(log: Logger): (reason: unknown) => void {
  const listener = (reason: unknown) => {
    const ref = errorRef();
    log.error({ ref, err: loggableError(reason) }, `unhandled rejection ${ref}; the server keeps serving`);
  };
  process.on('unhandledRejection', listener);
  return listener;
}
