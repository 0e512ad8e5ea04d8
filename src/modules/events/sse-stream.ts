import type { ServerResponse } from 'node:http';

/** A value as an SSE message: one `data:` line of JSON. */
export const sseData = (value: unknown) => `data: ${JSON.stringify(value)}\n\n`;

export interface SseStreamOptions {
  /** Bytes held back (written, not yet taken by the client) beyond which the client is disconnected. */
  maxBufferedBytes: number;
  onClose: () => void;
}

/**
 * One client's SSE stream, whatever it carries. Volatile by contract: a client that lets more than
 * `maxBufferedBytes` pile up behind a full socket is disconnected, so a slow reader cannot grow server memory
 * without bound.
 */
export class SseStream {
  private closed = false;
  private corked = false;

  constructor(
    private readonly response: ServerResponse,
    private readonly options: SseStreamOptions,
  ) {
    response.on('close', () => this.close());
  }

  get isOpen(): boolean {
    return !this.closed;
  }

  /** Writes one message, its blank line included (`data: …\n\n`); nothing once the stream is closed. */
  write(message: string): void {
    if (this.closed) return;
    if (!this.corked) {
      // What earlier turns wrote and the client has not taken yet. Measured before this turn's first write, so
      // the messages of one turn, corked together below, never count as held back while they are being written.
      if (this.response.writableLength > this.options.maxBufferedBytes) {
        this.response.destroy();
        this.close();
        return;
      }
      // Messages written until the event loop turns go out in one write (one system call, one wake-up of the
      // client), after whatever else this turn sends, such as the next request to a model.
      this.corked = true;
      this.response.cork();
      setImmediate(() => {
        this.corked = false;
        this.response.uncork();
      });
    }
    this.response.write(message);
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
