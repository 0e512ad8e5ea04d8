import type { PermissionReply, PermissionRequest } from './permission.types';

/** The permission events (PermissionRequestsService), added to the event catalog. */
declare module '@/common/events/event-catalog' {
  interface EventCatalog {
    'permission.asked': PermissionRequest;
    'permission.replied': { sessionID: string; requestID: string; reply: PermissionReply };
  }
}
