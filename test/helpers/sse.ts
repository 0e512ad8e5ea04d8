import { get, IncomingMessage } from 'node:http';
import type { OutpostEvent } from '../../src/common/events';

export interface SseClient {
  response: IncomingMessage;
  /** Every event received so far, in order. */
  events: OutpostEvent[];
  /** Resolves once the received events satisfy `done` (checked after each event). */
  until(done: (events: OutpostEvent[]) => boolean): Promise<OutpostEvent[]>;
  /** Resolves when the server ends or cuts the stream. */
  ended: Promise<void>;
  close(): void;
}

/** A small SSE reader over node:http that parses `data:` lines into events. */
export function openSse(url: string, headers: Record<string, string> = {}): Promise<SseClient> {
  return new Promise((resolve, reject) => {
    const request = get(url, { headers: { accept: 'text/event-stream', ...headers } }, (response) => {
      const events: OutpostEvent[] = [];
      const waiters: Array<() => void> = [];
      let buffer = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        buffer += chunk;
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const message = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const data = message
            .split('\n')
            .filter((line) => line.startsWith('data: '))
            .map((line) => line.slice(6))
            .join('\n');
          if (data) events.push(JSON.parse(data) as OutpostEvent);
        }
        for (const wake of waiters.splice(0)) wake();
      });
      const ended = new Promise<void>((done) => {
        response.on('end', done);
        response.on('close', done);
        response.on('error', () => done());
      });
      resolve({
        response,
        events,
        ended,
        until(done) {
          return new Promise((settle) => {
            const check = () => (done(events) ? settle(events) : waiters.push(check));
            check();
          });
        },
        close: () => request.destroy(),
      });
    });
    request.on('error', reject);
  });
}
