/**
 * `Session.Message.Info`: one entry of a session's projected transcript (reference §4.10). Every variant has
 * `{ id: "msg_…", type, metadata?, time: { created, … } }`; messages of a session sort by id ascending.
 *
 * Stored in `session_message`: `id`, `type`, `time_created`, `time_completed` and the usage of assistant
 * turns (`tokens_*`, `cost`) are columns; everything else of the variant (including `metadata`) is the
 * `data` jsonb, so a new variant or member needs no migration.
 */
import { ModelRef, Tokens } from './session.types';

export type Json = string | number | boolean | null | Json[] | { [key: string]: Json };

export interface MessageTime {
  created: number;
  completed?: number;
}

interface MessageBase {
  id: string;
  metadata?: Record<string, Json>;
  time: MessageTime;
}

export interface FileAttachment {
  /** base64 */
  data: string;
  mime: string;
  source: { type: 'inline' } | { type: 'uri'; uri: string };
  name?: string;
  description?: string;
  mention?: { start: number; end: number; text: string };
}

export interface UserMessage extends MessageBase {
  type: 'user';
  text: string;
  files?: FileAttachment[];
  agents?: Array<{ name: string; mention?: { start: number; end: number; text: string } }>;
  skills?: Array<{
    id: string;
    name: string;
    text: string;
    mention?: { start: number; end: number; text: string };
  }>;
}

export interface SyntheticMessage extends MessageBase {
  type: 'synthetic';
  text: string;
  description?: string;
}

export interface SystemMessage extends MessageBase {
  type: 'system';
  text: string;
  description?: string;
}

export interface SkillMessage extends MessageBase {
  type: 'skill';
  skill: string;
  name: string;
  text: string;
}

export interface ShellMessage extends MessageBase {
  type: 'shell';
  shellID: string;
  command: string;
  status: 'running' | 'exited' | 'timeout' | 'killed';
  exit?: number;
  output?: { output: string; cursor: number; size: number; truncated: boolean };
  /** The agent and model the session had when the person ran the command (v1 clients show them). */
  agent?: string;
  model?: ModelRef;
  /** The id v1 clients know the command's answer (its `bash` tool part) by; sorts right after `id`. */
  answerID?: string;
}

export interface AgentSwitchedMessage extends MessageBase {
  type: 'agent-switched';
  agent: string;
  previous?: string;
}

export interface ModelSwitchedMessage extends MessageBase {
  type: 'model-switched';
  model: ModelRef;
  previous?: ModelRef;
}

export interface LocationSwitchedMessage extends MessageBase {
  type: 'location-switched';
  location: { directory: string };
  projectID?: string;
  subpath?: string;
  previous?: { directory: string };
}

export interface CompactionMessage extends MessageBase {
  type: 'compaction';
  status: 'running' | 'completed' | 'failed';
  reason: 'auto' | 'manual';
  summary?: string;
  recent?: string;
  error?: string;
  /** The id v1 clients know the summary (an assistant message) by; sorts right after `id`. */
  answerID?: string;
  /** The model that wrote the summary. */
  model?: ModelRef;
}

export type ToolContent =
  { type: 'text'; text: string } | { type: 'file'; uri: string; mime: string; name?: string };

export type ToolState =
  | { status: 'streaming'; input: string }
  | { status: 'running'; input: Record<string, Json>; metadata: Record<string, Json> }
  | {
      status: 'completed';
      input: Record<string, Json>;
      content: ToolContent[];
      metadata?: Record<string, Json>;
    }
  | {
      status: 'error';
      input: Record<string, Json>;
      error: { type: string; message: string; status?: number };
      content?: ToolContent[];
      metadata?: Record<string, Json>;
    };

export type AssistantContent =
  | { type: 'text'; text: string; state?: Json }
  | { type: 'reasoning'; text: string; state?: Json; time?: Json }
  | {
      type: 'tool';
      id: string;
      name: string;
      executed?: boolean;
      providerState?: Json;
      providerResultState?: Json;
      state: ToolState;
      /** `compacted`: when the output was pruned (the model gets a note instead of it). */
      time: { created: number; ran?: number; completed?: number; compacted?: number };
    };

export interface AssistantMessage extends MessageBase {
  type: 'assistant';
  agent: string;
  model: ModelRef;
  content: AssistantContent[];
  snapshot?: { start?: string; end?: string; files?: string[] };
  finish?: 'stop' | 'length' | 'tool-calls' | 'content-filter' | 'error' | 'unknown';
  /** USD */
  cost?: number;
  tokens?: Tokens;
  error?: { type: string; message: string; status?: number };
  retry?: { attempt: number; at: number; error: string };
}

export type SessionMessageInfo =
  | UserMessage
  | SyntheticMessage
  | SystemMessage
  | SkillMessage
  | ShellMessage
  | AgentSwitchedMessage
  | ModelSwitchedMessage
  | LocationSwitchedMessage
  | CompactionMessage
  | AssistantMessage;

export type SessionMessageType = SessionMessageInfo['type'];
