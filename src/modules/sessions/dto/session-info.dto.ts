import { ApiExtraModels, ApiProperty, getSchemaPath } from '@nestjs/swagger';
import { ModelRefDto, PermissionRuleDto } from '../../agents/dto/agent-info.dto';
import type { SessionInfo, SessionsPage, Tokens } from '../session.types';

export class TokenCacheDto {
  read!: number;
  write!: number;
}

export class TokensDto implements Tokens {
  input!: number;
  output!: number;
  reasoning!: number;
  cache!: TokenCacheDto;
}

export class SessionForkBoundaryDto {
  type!: 'before' | 'through';
  messageID!: string;
}

export class SessionForkDto {
  sessionID!: string;
  /** Absent only when the source had no messages to copy. */
  boundary?: SessionForkBoundaryDto;
}

/** Epoch milliseconds. */
export class SessionTimeDto {
  created!: number;
  updated!: number;
  idle?: number;
  viewed?: number;
  archived?: number;
}

export class SessionLocationDto {
  directory!: string;
}

/** A staged revert: the messages from `messageID` on are hidden and their file changes undone. */
export class SessionRevertDto {
  messageID!: string;
  partID?: string;
  /** The files as they were when the revert was staged (an unrevert restores them). */
  snapshot?: string;
}

/** `Session.Info`: optional members are omitted, never null. */
export class SessionInfoDto implements SessionInfo {
  /** `ses_…` */
  id!: string;
  parentID?: string;
  fork?: SessionForkDto;
  projectID!: string;
  agent?: string;
  model?: ModelRefDto;
  /** USD */
  cost!: number;
  tokens!: TokensDto;
  outcome?: 'succeeded' | 'failed' | 'interrupted';
  time!: SessionTimeDto;
  title!: string;
  location!: SessionLocationDto;
  subpath?: string;
  metadata?: Record<string, unknown>;
  permissions?: PermissionRuleDto[];
  revert?: SessionRevertDto;
}

export class SessionResponseDto {
  data!: SessionInfoDto;
}

export class PageCursorDto {
  /** Pass as `cursor` for the page before this one. */
  previous?: string;
  /** Pass as `cursor` for the page after this one. */
  next?: string;
}

export class SessionsPageDto implements SessionsPage {
  data!: SessionInfoDto[];
  cursor!: PageCursorDto;
}

export class SessionActiveDto {
  type!: 'running';
}

@ApiExtraModels(SessionActiveDto)
export class SessionActiveListDto {
  @ApiProperty({
    description: 'Session id → `{ type: "running" }`, for each session with a running drain in this process.',
    type: 'object',
    additionalProperties: { $ref: getSchemaPath(SessionActiveDto) },
  })
  data!: Record<string, SessionActiveDto>;
}
