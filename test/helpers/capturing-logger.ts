import { LoggerService } from '@nestjs/common';

/** A Nest logger that keeps the error lines (for "the ref is in the log" checks) and drops the rest. */
export class CapturingLogger implements LoggerService {
  readonly lines: string[] = [];
  log() {}
  warn() {}
  error(...args: unknown[]) {
    this.lines.push(JSON.stringify(args));
  }
}
