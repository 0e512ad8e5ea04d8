import { Inject, Injectable, OnModuleDestroy } from '@nestjs/common';
import type { ServerResponse } from 'node:http';
import { liveGauge } from '@/common/metrics/metrics';
import { eventsConfig, EventsConfig } from './events.config';
import { SseStream } from './sse-stream';

/** The head of every event stream. */
const SSE_HEAD = {
  'Content-Type': 'text/event-stream; charset=utf-8',
  'Cache-Control': 'no-cache, no-transform',
  Connection: 'keep-alive',
  'X-Accel-Buffering': 'no',
};

/**
 * The one way an event stream is opened (`/api/event`, v1's `/event` and `/global/event`, a session's
 * `/api/session/{id}/event`): the same head, heartbeat (`OUTPOST_EVENT_HEARTBEAT_MS`) and cap on what a slow
 * client may leave unread (`OUTPOST_EVENT_MAX_BUFFERED_BYTES`); every stream is ended on shutdown.
 */
@Injectable()
export class SseStreams implements OnModuleDestroy {
  private readonly streams = new Set<SseStream>();

  constructor(@Inject(eventsConfig.KEY) private readonly config: EventsConfig) {
    liveGauge('outpost_event_stream_clients', 'Open event streams (SSE clients).', () => this.streams.size);
  }

  /** Starts a stream on `response`; `heartbeat` makes the message sent when nothing else was for a while. */
  open(response: ServerResponse, options: { heartbeat: () => string; onClose?: () => void }): SseStream {
    response.writeHead(200, SSE_HEAD);
    response.socket?.setNoDelay(true);
    const stream = new SseStream(response, {
      maxBufferedBytes: this.config.maxBufferedBytes,
      onClose: () => {
        clearInterval(heartbeat);
        this.streams.delete(stream);
        options.onClose?.();
      },
    });
    const heartbeat = setInterval(() => stream.write(options.heartbeat()), this.config.heartbeatMs);
    heartbeat.unref();
    this.streams.add(stream);
    // The client left before the stream began (a session stream reads its history first): nothing to wait for.
    // Ended once the caller has the stream, so its onClose finds what it cleans up.
    if (!response.socket || response.socket.destroyed) queueMicrotask(() => stream.end());
    return stream;
  }

  /** Streams never finish by themselves; on shutdown they are ended so the server can close. */
  onModuleDestroy(): void {
    for (const stream of [...this.streams]) stream.end();
  }
}
