import { Inject, Injectable, OnModuleDestroy } from '@nestjs/common';
import { OnEvent } from '@nestjs/event-emitter';
import type { ServerResponse } from 'node:http';
import { EventsPublisher, OutpostEvent, PUBLISHED_EVENT } from '@/common/events';
import { eventsConfig, EventsConfig } from './events.config';
import { EventStream } from './event-stream';
import { liveGauge } from '@/common/metrics/metrics';

/** Fans every published event out to the open SSE streams of this process, in publication order. */
@Injectable()
export class EventStreamsService implements OnModuleDestroy {
  private readonly streams = new Set<EventStream>();

  constructor(
    @Inject(eventsConfig.KEY) private readonly config: EventsConfig,
    private readonly publisher: EventsPublisher,
  ) {
    liveGauge('outpost_event_stream_clients', 'Open event streams (SSE clients).', () => this.streams.size);
  }

  get openCount(): number {
    return this.streams.size;
  }

  /** Starts the stream on `response`: `server.connected` first, then every event, with heartbeats. */
  open(response: ServerResponse, directory?: string): void {
    response.writeHead(200, {
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-cache, no-transform',
      Connection: 'keep-alive',
      'X-Accel-Buffering': 'no',
    });
    response.socket?.setNoDelay(true);
    const stream = new EventStream(response, {
      directory,
      maxBufferedBytes: this.config.maxBufferedBytes,
      onClose: () => {
        clearInterval(heartbeat);
        this.streams.delete(stream);
      },
    });
    const heartbeat = setInterval(
      () => stream.send(this.publisher.envelope('server.heartbeat', {})),
      this.config.heartbeatMs,
    );
    heartbeat.unref();
    stream.send(this.publisher.envelope('server.connected', {}));
    this.streams.add(stream);
  }

  @OnEvent(PUBLISHED_EVENT)
  deliver(event: OutpostEvent): void {
    for (const stream of this.streams) stream.send(event);
  }

  /** Streams never finish by themselves; on shutdown they are ended so the server can close. */
  onModuleDestroy(): void {
    for (const stream of [...this.streams]) stream.end();
  }
}
