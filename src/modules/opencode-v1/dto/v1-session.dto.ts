import { Type } from 'class-transformer';
import {
  Allow,
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsNotEmpty,
  IsNumberString,
  IsOptional,
  IsString,
  Matches,
  MaxLength,
  ValidateNested,
} from 'class-validator';
import { MESSAGE_ID, SESSION_ID } from '../../sessions/session-ids';
import { V1QueryDto } from './v1-query.dto';

export class V1SessionParamsDto {
  @Matches(SESSION_ID, { message: 'sessionID must be a session id (ses_…)' })
  sessionID!: string;
}

export class V1MessageParamsDto extends V1SessionParamsDto {
  @Matches(MESSAGE_ID, { message: 'messageID must be a message id (msg_…)' })
  messageID!: string;
}

export class V1PermissionParamsDto {
  @IsString()
  @MaxLength(200)
  requestID!: string;
}

export class V1SessionPermissionParamsDto extends V1SessionParamsDto {
  @IsString()
  @MaxLength(200)
  permissionID!: string;
}

/** `{ providerID, modelID }` (v1), or `{ providerID, id }` as the TUI sends it when creating a session. */
export class V1ModelDto {
  @IsString()
  @MaxLength(200)
  providerID!: string;

  @IsOptional()
  @IsString()
  @MaxLength(200)
  modelID?: string;

  @IsOptional()
  @IsString()
  @MaxLength(200)
  id?: string;

  @IsOptional()
  @IsString()
  @MaxLength(200)
  variant?: string;
}

export class V1RuleDto {
  @IsString()
  @MaxLength(200)
  permission!: string;

  @IsString()
  @MaxLength(4096)
  pattern!: string;

  @IsIn(['allow', 'deny', 'ask'])
  action!: 'allow' | 'deny' | 'ask';
}

export class V1CreateSessionDto {
  @IsOptional()
  @Matches(SESSION_ID, { message: 'parentID must be a session id (ses_…)' })
  parentID?: string;

  @IsOptional()
  @IsString()
  @MaxLength(1000)
  title?: string;

  @IsOptional()
  @IsString()
  @MaxLength(200)
  agent?: string;

  @IsOptional()
  @ValidateNested()
  @Type(() => V1ModelDto)
  model?: V1ModelDto;

  @IsOptional()
  @IsArray()
  @ArrayMaxSize(1000)
  @ValidateNested({ each: true })
  @Type(() => V1RuleDto)
  permission?: V1RuleDto[];

  @IsOptional()
  @IsString()
  @MaxLength(200)
  workspaceID?: string;
}

export class V1UpdateSessionDto {
  @IsOptional()
  @IsString()
  @MaxLength(1000)
  title?: string;

  @Allow()
  time?: unknown;
}

export class V1ListSessionsQueryDto extends V1QueryDto {
  @IsOptional()
  @IsIn(['true', 'false'])
  roots?: string;

  @IsOptional()
  @IsNumberString()
  start?: string;

  @IsOptional()
  @IsString()
  @MaxLength(1000)
  search?: string;

  @IsOptional()
  @Matches(/^[1-9][0-9]{0,3}$/, { message: 'limit must be a number from 1 to 9999' })
  limit?: string;

  @IsOptional()
  @IsString()
  @MaxLength(4096)
  path?: string;
}

export class V1MessagesQueryDto extends V1QueryDto {
  @IsOptional()
  @Matches(/^[1-9][0-9]{0,5}$/, { message: 'limit must be a positive number' })
  limit?: string;
}

/** A prompt part: `text`, `file` (a URL, `data:` inlined), `agent`; ids and sources clients add are accepted. */
export class V1PartInputDto {
  @IsIn(['text', 'file', 'agent', 'subtask'])
  type!: 'text' | 'file' | 'agent' | 'subtask';

  @IsOptional()
  @IsString()
  @MaxLength(1_000_000)
  text?: string;

  @IsOptional()
  @IsString()
  @MaxLength(200)
  mime?: string;

  @IsOptional()
  @IsString()
  @MaxLength(32 * 1024 * 1024)
  url?: string;

  @IsOptional()
  @IsString()
  @MaxLength(1000)
  filename?: string;

  @IsOptional()
  @IsString()
  @MaxLength(200)
  name?: string;

  @Allow()
  id?: unknown;

  @Allow()
  source?: unknown;

  @Allow()
  synthetic?: unknown;

  @Allow()
  metadata?: unknown;
}

export class V1PromptDto {
  @IsOptional()
  @Matches(MESSAGE_ID, { message: 'messageID must be a message id (msg_…)' })
  messageID?: string;

  @IsOptional()
  @ValidateNested()
  @Type(() => V1ModelDto)
  model?: V1ModelDto & { modelID: string };

  @IsOptional()
  @IsString()
  @MaxLength(200)
  agent?: string;

  @IsOptional()
  @IsBoolean()
  noReply?: boolean;

  @IsOptional()
  @IsString()
  @MaxLength(200)
  variant?: string;

  @Allow()
  system?: unknown;

  @Allow()
  tools?: unknown;

  @Allow()
  format?: unknown;

  @IsArray()
  @ArrayMaxSize(100)
  @ValidateNested({ each: true })
  @Type(() => V1PartInputDto)
  parts!: V1PartInputDto[];
}

export class V1PermissionReplyDto {
  @IsIn(['once', 'always', 'reject'])
  reply!: 'once' | 'always' | 'reject';

  @IsOptional()
  @IsString()
  @MaxLength(10_000)
  message?: string;
}

/** The older per-session reply: `{ response }`. */
export class V1SessionPermissionReplyDto {
  @IsIn(['once', 'always', 'reject'])
  response!: 'once' | 'always' | 'reject';
}

/** `POST /session/{id}/shell`: a command the person runs in the session's location. */
export class V1ShellDto {
  /** The SDK's id for the new message, as with a prompt: checked, and Outpost gives the message its own. */
  @IsOptional()
  @Matches(MESSAGE_ID, { message: 'messageID must be a message id (msg_…)' })
  messageID?: string;

  @IsString()
  @MaxLength(200)
  agent!: string;

  @IsOptional()
  @ValidateNested()
  @Type(() => V1ModelDto)
  model?: V1ModelDto & { modelID: string };

  @IsString()
  @IsNotEmpty({ message: 'command must not be empty' })
  @MaxLength(100_000)
  command!: string;
}
