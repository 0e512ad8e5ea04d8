import type { ServerResponse } from 'node:http';
import { OutpostEvent } from '@/common/events';

export interface EventStreamOptions {
  /** Only events of this location (and those of no location, such as `server.*`). */
  directory?: string;
  /** Bytes held back (written, not yet taken by the client) beyond which the client is disconnected. */
  maxBufferedBytes: number;
  onClose: () => void;
}

/**
 * One client's SSE stream. Volatile by contract: a client that lets more than `maxBufferedBytes` of events pile
 * up behind a full socket is disconnected, so a slow reader cannot grow server memory without bound.
 */
export class EventStream {
  private closed = false;
  private corked = false;

  constructor(
    private readonly response: ServerResponse,
    private readonly options: EventStreamOptions,
  ) {
    response.on('close', () => this.close());
  }

  send(event: OutpostEvent): void {
    if (this.closed) return;
    const { directory } = this.options;
    if (directory !== undefined && event.location && event.location.directory !== directory) return;
    if (!this.corked) {
      // What earlier turns wrote and the client has not taken yet. Measured before this turn's first write, so
      // the events of one turn, corked together below, never count as held back while they are being written.
      if (this.response.writableLength > this.options.maxBufferedBytes) {
        this.response.destroy();
        this.close();
        return;
      }
      // Events published until the event loop turns go out in one write (one system call, one wake-up of the
      // client), after whatever else this turn sends, such as the next request to a model.
      this.corked = true;
      this.response.cork();
      setImmediate(() => {
        this.corked = false;
        this.response.uncork();
      });
    }
    this.response.write(`data: ${JSON.stringify(event)}\n\n`);
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
