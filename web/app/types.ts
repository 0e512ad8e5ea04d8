/** The server's own types of what the instance API returns (type-only: nothing of the server is bundled). */
export type { SessionInfo, ModelRef, Tokens } from '../../src/modules/sessions/session.types';
export type {
  AssistantContent,
  AssistantMessage,
  SessionMessageInfo,
  ToolState,
  Json,
} from '../../src/modules/sessions/session-message.types';
export type { PermissionRequest } from '../../src/modules/runtime/permissions/permission.types';
export type { SessionStatsInfo } from '../../src/modules/session-stats/session-stats.types';
export type { AgentInfo } from '../../src/modules/agents/agent.types';
export type { OutpostEvent, EventCatalog, EventType } from '../../src/common/events/event-catalog';

/** `GET /api/info`. */
export interface ServerInfo {
  version: string;
  pid: number;
  urls: string[];
  paths: Record<string, string>;
  ready: boolean;
  console?: {
    state: 'unlinked' | 'linked' | 'signed_out';
    console: string | null;
    workspace: string | null;
    since: string | null;
    configFetchedAt: string | null;
    problem: string | null;
  };
}

/** `GET /api/model` entries (what the prompt box offers). */
export interface ModelView {
  id: string;
  providerID: string;
  name: string;
}

export interface PairingCode {
  code: string;
  expires_in: number;
  url: string;
}
