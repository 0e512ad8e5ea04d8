import { LoggerService } from '@nestjs/common';

/** A Nest logger that keeps the error lines (for "the ref is in the log" checks) and the warnings, and drops the rest. */
export class CapturingLogger implements LoggerService {
  readonly lines: string[] = [];
  readonly warnings: string[] = [];
  log() {}
  warn(...args: unknown[]) {
    this.warnings.push(JSON.stringify(args));
  }
  error(...args: unknown[]) {
    this.lines.push(JSON.stringify(args));
  }
}
