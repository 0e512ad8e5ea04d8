/**
 * Every event the instance publishes, by type, with its payload. The SSE stream (`GET /api/event`)
 * sends them as `{ id, created, type, location?, data }`. The platform's own are here; a module adds its own
 * types to this interface in a `*.events.ts` file of its folder (TypeScript's declaration merging), before it emits
 * them: `sessions/session.events.ts`, `runtime/permissions/permission.events.ts`, `runtime/questions/question.events.ts`, `prompt/inbox/inbox.events.ts`.
 */
export interface EventCatalog {
  'server.connected': Record<string, never>;
  'server.heartbeat': Record<string, never>;
  'location.shutdown': Record<string, never>;
  /** The agents of a location changed (a reload or a plugin update). */
  'agent.updated': Record<string, never>;
  /** Plugins were updated or changed; locations using them reload. */
  'plugin.updated': Record<string, never>;
}

export type EventType = keyof EventCatalog;

export interface EventLocation {
  directory: string;
}

export interface OutpostEvent<K extends EventType = EventType> {
  id: string;
  created: number;
  type: K;
  location?: EventLocation;
  data: EventCatalog[K];
}

/** The one `@nestjs/event-emitter` channel that carries published events to the stream. */
export const PUBLISHED_EVENT = 'outpost.event';
