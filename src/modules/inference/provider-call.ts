import type { Dispatcher } from 'undici';
import type { ServerResponse } from 'node:http';
import { UpstreamError } from './gateway.errors';

/** A whole answer larger than the gateway holds in memory for one call. */
export class AnswerTooLargeError extends UpstreamError {
  constructor(limit: number) {
    super(`The provider's answer is larger than ${limit} bytes (OUTPOST_GATEWAY_MAX_RESPONSE_BYTES)`);
  }
}

/** Upstream answer headers passed on; everything else (cookies, provider ids, rate-limit details) stays behind. */
const PASSED_HEADERS = new Set(['content-type', 'cache-control', 'retry-after']);

/** `https://host:port/v1` → the origin and the path before the route's own. */
export function splitBaseUrl(baseUrl: string): { origin: string; path: string } {
  const slash = baseUrl.indexOf('/', baseUrl.indexOf('//') + 2);
  return slash < 0
    ? { origin: baseUrl, path: '' }
    : { origin: baseUrl.slice(0, slash), path: baseUrl.slice(slash) };
}

/**
 * One request to a provider, as undici's dispatcher delivers it: `answered` resolves at the status line, then the
 * body is read whole (`text`), passed on to the client as it comes (`pipe`) or thrown away (`dump`). Chunks that
 * arrive before one of those is called wait in memory. `abort` cancels the call at any point (the client left).
 *
 * This is the gateway's hot path, so it takes undici's handler callbacks directly: no stream object or async
 * iterator per answer (bench/gateway measured undici's `request()` at tens of µs more per call).
 */
export class ProviderCall implements Dispatcher.DispatchHandlers {
  statusCode = 0;
  /** The passed headers of the answer (content type and cache control), lower-case. */
  readonly headers: Record<string, string> = {};
  aborted = false;
  readonly answered: Promise<void>;

  private chunks: Buffer[] = [];
  private sink: ((chunk: Buffer) => boolean) | undefined;
  private done: { resolve(): void; reject(error: Error): void } | undefined;
  private finished = false;
  private failure: Error | undefined;
  private cancel: ((error?: Error) => void) | undefined;
  private resumeReading: (() => void) | undefined;
  private settleAnswered!: { resolve(): void; reject(error: Error): void };

  private buffered = 0;

  /** `maxBuffered`: the most bytes of the answer held in memory (read whole, or waiting for a reader). */
  constructor(private readonly maxBuffered = Infinity) {
    this.answered = new Promise((resolve, reject) => (this.settleAnswered = { resolve, reject }));
    this.answered.catch(() => undefined); // a failure after the status line is the body's to report
  }

  /** Cancels the call: the provider's connection is closed and every pending promise rejects. */
  abort(): void {
    if (this.aborted || this.finished) return;
    this.aborted = true;
    this.cancel?.(new Error('The client left'));
  }

  /** The whole body as text (read once; a second call answers the same text). */
  text(): Promise<string> {
    return (this.whole ??= this.consume(undefined).then(() => {
      const chunks = this.chunks;
      this.chunks = [];
      return chunks.length === 1 ? chunks[0].toString('utf8') : Buffer.concat(chunks).toString('utf8');
    }));
  }

  private whole: Promise<string> | undefined;

  /**
   * The body written to `response` as it comes (`onChunk` sees each chunk first, `rewrite` may change what is
   * written); waits for a full socket to drain.
   */
  pipe(
    response: ServerResponse,
    onChunk: (chunk: Buffer) => void,
    rewrite?: (chunk: Buffer) => Buffer,
  ): Promise<void> {
    const write = (chunk: Buffer): boolean => {
      onChunk(chunk);
      const out = rewrite ? rewrite(chunk) : chunk;
      if (out.length === 0 || response.write(out)) return true;
      response.once('drain', () => this.resumeReading?.());
      return false;
    };
    for (const chunk of this.chunks) write(chunk);
    this.chunks = [];
    return this.consume(write);
  }

  /** The body read and thrown away. */
  dump(): Promise<void> {
    return this.consume(() => true);
  }

  private consume(sink: ((chunk: Buffer) => boolean) | undefined): Promise<void> {
    this.sink = sink;
    if (sink) this.chunks = [];
    if (this.failure) return Promise.reject(this.failure);
    if (this.finished) return Promise.resolve();
    return new Promise((resolve, reject) => (this.done = { resolve, reject }));
  }

  onConnect(abort: (error?: Error) => void): void {
    this.cancel = abort;
    if (this.aborted) abort(new Error('The client left'));
  }

  onHeaders(statusCode: number, headers: Buffer[], resume: () => void): boolean {
    if (statusCode < 200) return true; // 1xx: the answer is still to come
    this.statusCode = statusCode;
    this.resumeReading = resume;
    for (let i = 0; i < headers.length; i += 2) {
      const name = headers[i].toString('latin1').toLowerCase();
      if (PASSED_HEADERS.has(name)) this.headers[name] = headers[i + 1].toString('latin1');
    }
    this.settleAnswered.resolve();
    return true;
  }

  onData(chunk: Buffer): boolean {
    if (this.sink) return this.sink(chunk);
    this.buffered += chunk.length;
    if (this.buffered > this.maxBuffered) {
      this.chunks = [];
      this.cancel?.(new AnswerTooLargeError(this.maxBuffered));
      return false;
    }
    this.chunks.push(chunk);
    return true;
  }

  onComplete(): void {
    this.finished = true;
    this.done?.resolve();
  }

  onError(error: Error): void {
    this.failure = error;
    this.settleAnswered.reject(error);
    this.done?.reject(error);
  }
}
