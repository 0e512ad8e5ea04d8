import type { FileAttachment, Json } from '../../sessions/session-message.types';

export type Delivery = 'steer' | 'queue';

export interface AgentAttachment {
  name: string;
  mention?: { start: number; end: number; text: string };
}

/** `Session.Inbox.User`'s payload: what the person sent. */
export interface UserPayload {
  text: string;
  files?: FileAttachment[];
  agents?: AgentAttachment[];
  skills?: Json[];
  metadata?: Record<string, Json>;
}

/** A move of a running session, applied by its drain at the delivery boundary. */
export interface MovePayload {
  location: { directory: string };
}

interface InboxBase {
  id: string;
  sessionID: string;
  timeCreated: number;
  delivery: Delivery;
}

/** `Session.Inbox.User`: the answer of `session.prompt`. */
export interface InboxUser extends InboxBase {
  type: 'user';
  payload: UserPayload;
}

export interface InboxMove extends InboxBase {
  type: 'move';
  payload: MovePayload;
}

export type InboxItem = InboxUser | InboxMove;
