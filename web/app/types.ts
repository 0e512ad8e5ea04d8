import type { InstanceSchemas } from '../shared/api/client';

/** What the instance API answers, as its OpenAPI document (and so the generated client) describes it. */
export type SessionInfo = InstanceSchemas['SessionInfoDto'];
export type PermissionRequest = InstanceSchemas['PermissionRequestDto'];
export type SessionStatsInfo = InstanceSchemas['SessionStatsDto'];
export type AgentInfo = InstanceSchemas['AgentInfoDto'];
export type ServerInfo = InstanceSchemas['ServerInfoDto'];
export type ModelView = InstanceSchemas['ModelViewDto'];
export type PairingCode = InstanceSchemas['PairingCodeDto'];
export type ConsoleLinkView = InstanceSchemas['ConsoleLinkViewDto'];
export type Tokens = InstanceSchemas['TokensDto'];

/*
 * The transcript and the event stream, from the server's own types (type-only: nothing of the server is bundled).
 * The document flattens the message variants into one loose schema; rendering needs the discriminated unions.
 */
export type {
  AssistantContent,
  AssistantMessage,
  SessionMessageInfo,
  ToolState,
  Json,
} from '../../src/modules/sessions/session-message.types';
export type { OutpostEvent, EventCatalog } from '../../src/common/events/event-catalog';
