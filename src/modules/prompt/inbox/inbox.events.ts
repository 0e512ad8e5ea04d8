import type { InboxItem } from './inbox.types';

/** The inbox's events, added to the event catalog. */
declare module '@/common/events/event-catalog' {
  interface EventCatalog {
    /** An input was admitted to the session's inbox. */
    'session.inbox.enqueued': { sessionID: string; item: InboxItem };
  }
}
