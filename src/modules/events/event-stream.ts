import type { ServerResponse } from 'node:http';
import { OutpostEvent } from '../../common/events';

export interface EventStreamOptions {
  /** Only events of this location (and those of no location, such as `server.*`). */
  directory?: string;
  maxQueued: number;
  onClose: () => void;
}

/**
 * One client's SSE stream. Volatile by contract: a client that lets more than `maxQueued` events pile up
 * behind a full socket is disconnected, so a slow reader cannot grow server memory without bound.
 */
export class EventStream {
  private queued = 0;
  private closed = false;
  private corked = false;

  constructor(
    private readonly response: ServerResponse,
    private readonly options: EventStreamOptions,
  ) {
    response.on('drain', () => (this.queued = 0));
    response.on('close', () => this.close());
  }

  send(event: OutpostEvent): void {
    if (this.closed) return;
    const { directory } = this.options;
    if (directory !== undefined && event.location && event.location.directory !== directory) return;
    if (!this.corked) {
      // Events published until the event loop turns go out in one write (one system call, one wake-up of the
      // client), after whatever else this turn sends, such as the next request to a model.
      this.corked = true;
      this.response.cork();
      setImmediate(() => {
        this.corked = false;
        this.response.uncork();
      });
    }
    if (this.response.write(`data: ${JSON.stringify(event)}\n\n`)) return;
    this.queued += 1;
    if (this.queued > this.options.maxQueued) {
      this.response.destroy();
      this.close();
    }
  }

  end(): void {
    if (!this.closed) this.response.end();
    this.close();
  }

  private close(): void {
    if (this.closed) return;
    this.closed = true;
    this.options.onClose();
  }
}
