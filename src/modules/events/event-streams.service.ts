import { Injectable } from '@nestjs/common';
import { OnEvent } from '@nestjs/event-emitter';
import type { ServerResponse } from 'node:http';
import { EventsPublisher, OutpostEvent, PUBLISHED_EVENT } from '@/common/events';
import { SseStream, sseData } from './sse-stream';
import { SseStreams } from './sse-streams';

/** An `/api/event` client: its stream, and the location it asked for (none: every location). */
interface Subscriber {
  stream: SseStream;
  directory?: string;
}

/** Fans every published event out to the open `/api/event` streams of this process, in publication order. */
@Injectable()
export class EventStreamsService {
  private readonly subscribers = new Set<Subscriber>();

  constructor(
    private readonly sse: SseStreams,
    private readonly publisher: EventsPublisher,
  ) {}

  get openCount(): number {
    return this.subscribers.size;
  }

  /** Starts the stream on `response`: `server.connected` first, then every event, with heartbeats. */
  open(response: ServerResponse, directory?: string): void {
    const subscriber: Subscriber = {
      directory,
      stream: this.sse.open(response, {
        heartbeat: () => sseData(this.publisher.envelope('server.heartbeat', {})),
        onClose: () => this.subscribers.delete(subscriber),
      }),
    };
    subscriber.stream.write(sseData(this.publisher.envelope('server.connected', {})));
    this.subscribers.add(subscriber);
  }

  @OnEvent(PUBLISHED_EVENT)
  deliver(event: OutpostEvent): void {
    for (const { stream, directory } of this.subscribers) {
      // Only the events of the location asked for, and those of no location (such as `server.*`).
      if (directory !== undefined && event.location && event.location.directory !== directory) continue;
      stream.write(sseData(event));
    }
  }
}
