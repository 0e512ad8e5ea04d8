/**
 * When a batch writer (the usage ledger, the request log) writes what it holds: `everyMs` after something is
 * added, or at once when a batch is full; one write at a time, and a flush asked for while another waits to start
 * joins it (that one writes everything pending when it starts); a failed write is tried again `everyMs` later,
 * but not once the server stops. The writer's `write` writes everything pending, or calls `retry` and returns.
 */
export class BatchSchedule {
  private timer?: NodeJS.Timeout;
  private stopped = false;
  private last: Promise<void> = Promise.resolve();
  private waiting?: Promise<void>;

  constructor(
    private readonly everyMs: number,
    private readonly write: () => Promise<void>,
  ) {}

  /** Something was added: written within `everyMs`, or at once when it filled a batch. */
  added(full: boolean): void {
    if (full) void this.flush();
    else this.soon();
  }

  /** A write failed: it is tried again soon, unless the server is stopping. */
  retry(): void {
    if (!this.stopped) this.soon();
  }

  /** Resolves once everything pending now is written, or its write failed. */
  flush(): Promise<void> {
    if (!this.waiting) {
      const start = () => {
        this.waiting = undefined;
        clearTimeout(this.timer);
        this.timer = undefined;
        return this.write();
      };
      this.waiting = this.last = this.last.then(start, start);
    }
    return this.waiting;
  }

  /** The server stops: the last flush, after which a failed write is not retried. */
  stop(): Promise<void> {
    this.stopped = true;
    return this.flush();
  }

  private soon(): void {
    this.timer ??= setTimeout(() => void this.flush(), this.everyMs);
  }
}
