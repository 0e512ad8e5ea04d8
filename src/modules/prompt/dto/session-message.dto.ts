import { ApiProperty } from '@nestjs/swagger';
import { ModelRefDto } from '../../agents/dto/agent-info.dto';
import { PageCursorDto, TokensDto } from '../../sessions/dto/session-info.dto';
import type { PermissionRequest } from '../../runtime/permissions/permission.types';

export class MessageTimeDto {
  created!: number;
  completed?: number;
}

export class MessageErrorDto {
  type!: string;
  message!: string;
  status?: number;
}

/**
 * `Session.Message.Info`: one entry of a transcript. `id`, `type` and `time` are always there; the other members
 * depend on `type` (user: `text`, `files`; assistant: `agent`, `model`, `content`, `finish`, `cost`, `tokens`;
 * shell: `command`, `status`, `output`; …).
 */
export class SessionMessageDto {
  /** `msg_…`, ascending. */
  id!: string;
  type!:
    | 'user'
    | 'synthetic'
    | 'system'
    | 'skill'
    | 'shell'
    | 'agent-switched'
    | 'model-switched'
    | 'location-switched'
    | 'compaction'
    | 'assistant';
  time!: MessageTimeDto;
  metadata?: Record<string, unknown>;
  /** user, synthetic, system, skill */
  text?: string;
  /** user: attached files, base64 `data` with `mime`. */
  files?: Record<string, unknown>[];
  /** assistant, agent-switched */
  agent?: string;
  /** assistant, model-switched */
  model?: ModelRefDto;
  /** assistant: text, reasoning and tool parts in order. */
  content?: Record<string, unknown>[];
  /** assistant */
  finish?: 'stop' | 'length' | 'tool-calls' | 'content-filter' | 'error' | 'unknown';
  /** assistant, USD */
  cost?: number;
  /** assistant */
  tokens?: TokensDto;
  /** assistant */
  error?: MessageErrorDto;
  /** shell */
  command?: string;
  /** shell: running, exited, timeout, killed; compaction: running, completed, failed. */
  status?: string;
}

export class MessagesPageDto {
  data!: SessionMessageDto[];
  cursor!: PageCursorDto;
}

export class PermissionToolRefDto {
  messageID!: string;
  callID!: string;
}

export class PermissionRequestTimeDto {
  created!: number;
}

/** A pending `ask` of the permission rules. */
export class PermissionRequestDto implements PermissionRequest {
  /** `per_…` */
  id!: string;
  sessionID!: string;
  /** The action asked about: `edit`, `bash`, `external_directory`, … */
  permission!: string;
  /** The resources of this call: paths, the command, … */
  patterns!: string[];
  /** The resources an `always` reply allows from now on in this session. */
  always!: string[];
  metadata!: Record<string, unknown>;
  tool?: PermissionToolRefDto;
  time!: PermissionRequestTimeDto;
}

export class PermissionRequestListDto {
  data!: PermissionRequestDto[];
}

export class PermissionRequestResponseDto {
  data!: PermissionRequestDto;
}

export class PromptPayloadDto {
  text!: string;
  @ApiProperty({ type: 'array', items: { type: 'object', additionalProperties: true }, required: false })
  files?: Record<string, unknown>[];
  @ApiProperty({ type: 'array', items: { type: 'object', additionalProperties: true }, required: false })
  agents?: Record<string, unknown>[];
  @ApiProperty({ type: 'array', items: {}, required: false })
  skills?: unknown[];
  metadata?: Record<string, unknown>;
}

/** `Session.Inbox.User`: the prompt as admitted. */
export class AdmittedPromptDto {
  id!: string;
  sessionID!: string;
  type!: 'user';
  /** Epoch ms. */
  timeCreated!: number;
  delivery!: 'steer' | 'queue';
  payload!: PromptPayloadDto;
  /** Position in the session's inbox. */
  admittedSeq!: number;
}

export class AdmittedPromptResponseDto {
  data!: AdmittedPromptDto;
}
