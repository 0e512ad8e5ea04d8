import type { PermissionReply, PermissionRequest } from '../../modules/runtime/permissions/permission.types';
import type { ModelRef, SessionInfo } from '../../modules/sessions/session.types';

/**
 * Every event the instance publishes, by type, with its payload. The SSE stream (`GET /api/event`)
 * sends them as `{ id, created, type, location?, data }`. Add an entry here before emitting a new type.
 */
export interface EventCatalog {
  'server.connected': Record<string, never>;
  'server.heartbeat': Record<string, never>;
  'location.shutdown': Record<string, never>;
  /** The agents of a location changed (a reload or a plugin update). */
  'agent.updated': Record<string, never>;
  /** Plugins were updated or changed; locations using them reload. */
  'plugin.updated': Record<string, never>;
  'permission.asked': PermissionRequest;
  'permission.replied': { sessionID: string; requestID: string; reply: PermissionReply };
  'session.created': { sessionID: string; info: SessionInfo };
  'session.updated': { sessionID: string; info: SessionInfo };
  'session.deleted': { sessionID: string; info: SessionInfo };
  'session.agent.selected': { sessionID: string; agent: string };
  'session.model.selected': { sessionID: string; model: ModelRef };
  'session.moved': {
    sessionID: string;
    location: { directory: string };
    projectID: string;
    subpath?: string;
  };
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
