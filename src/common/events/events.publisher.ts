import { Injectable } from '@nestjs/common';
import { EventEmitter2 } from '@nestjs/event-emitter';
import { Clock } from '../clock';
import { ascendingId } from '../ids';
import { EventCatalog, EventLocation, EventType, OutpostEvent, PUBLISHED_EVENT } from './event-catalog';

/** Publishes typed events to every listener in this process. Call it after the transaction commits. */
@Injectable()
export class EventsPublisher {
  constructor(
    private readonly emitter: EventEmitter2,
    private readonly clock: Clock,
  ) {}

  publish<K extends EventType>(type: K, data: EventCatalog[K], location?: EventLocation): OutpostEvent<K> {
    const event = this.envelope(type, data, location);
    this.emitter.emit(PUBLISHED_EVENT, event);
    return event;
  }

  /** An event with its id and time, not published: for what one stream sends only to its own client. */
  envelope<K extends EventType>(type: K, data: EventCatalog[K], location?: EventLocation): OutpostEvent<K> {
    const created = this.clock.now();
    const event: OutpostEvent<K> = { id: ascendingId('evt', created), created, type, data };
    if (location) event.location = { directory: location.directory };
    return event;
  }
}
