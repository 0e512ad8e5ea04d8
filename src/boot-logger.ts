import { LoggerService } from '@nestjs/common';
import pino from 'pino';

/**
 * Nest's own messages during boot, as JSON on stdout like every later line. Nothing is buffered,
 * so a failure while connecting to the database is printed before the process exits.
 */
export class BootLogger implements LoggerService {
  private readonly pino = pino({ level: process.env.LOG_LEVEL || 'info' });

  log(message: unknown, context?: string) {
    this.pino.info({ context }, String(message));
  }
  error(message: unknown, _trace?: string, context?: string) {
    this.pino.error({ context }, String(message));
  }
  warn(message: unknown, context?: string) {
    this.pino.warn({ context }, String(message));
  }
  debug(message: unknown, context?: string) {
    this.pino.debug({ context }, String(message));
  }
  verbose(message: unknown, context?: string) {
    this.pino.trace({ context }, String(message));
  }
}
