import { Logger } from '@nestjs/common';

/**
 * When a batch writer (the usage ledger, the request log) writes what it holds: `everyMs` after something is
 * added, or at once when a batch is full; one write at a time, and a flush asked for while another waits to start
 * joins it (that one writes everything pending when it starts); a failed write is tried again `everyMs` later,
 * but not once the server stops. The writer's `write` writes what is pending when it starts, or calls `retry` and
 * returns: what is added during a write waits for the next (a write that chased it would follow every write under
 * load with the few rows that came meanwhile, one statement each), except when the server stops, when `stop`
 * writes until nothing is `pending`. A write that throws (it should call `retry` instead) is reported to `failed`
 * (by default the log) and tried again like one that called `retry`: never a rejection from a timer, which would
 * stop the process.
 */
export class BatchSchedule {
  private timer?: NodeJS.Timeout;
  private stopped = false;
  private last: Promise<void> = Promise.resolve();
  private waiting?: Promise<void>;
  /** A write failed after `stop`: it is not tried again. */
  private gaveUp = false;

  constructor(
    private readonly everyMs: number,
    private readonly write: () => Promise<void>,
    private readonly pending: () => boolean = () => false,
    private readonly failed: (error: Error) => void = (error) =>
      new Logger(BatchSchedule.name).error(`batch write failed, retrying: ${error.message}`),
  ) {}

  /** Something was added: written within `everyMs`, or at once when it filled a batch. */
  added(full: boolean): void {
    if (full) void this.flush();
    else this.soon();
  }

  /** A write failed: it is tried again soon, unless the server is stopping. */
  retry(): void {
    if (this.stopped) this.gaveUp = true;
    else this.soon();
  }

  /** Resolves once everything pending now is written, or its write failed; never rejects. */
  flush(): Promise<void> {
    if (!this.waiting) {
      const start = () => {
        this.waiting = undefined;
        clearTimeout(this.timer);
        this.timer = undefined;
        return this.write().catch((error: Error) => {
          this.failed(error);
          this.retry();
        });
      };
      this.waiting = this.last = this.last.then(start, start);
    }
    return this.waiting;
  }

  /** The server stops: the last flushes, until nothing is pending or a write failed (it is not retried). */
  async stop(): Promise<void> {
    this.stopped = true;
    do await this.flush();
    while (!this.gaveUp && this.pending());
  }

  private soon(): void {
    this.timer ??= setTimeout(() => void this.flush(), this.everyMs);
  }
}
