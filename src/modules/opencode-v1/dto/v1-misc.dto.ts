import {
  IsArray,
  IsBoolean,
  IsIn,
  IsObject,
  IsOptional,
  IsString,
  Matches,
  MaxLength,
} from 'class-validator';
import { MESSAGE_ID } from '../../sessions/session-ids';

/** `POST /log` (`app.log`): a client's line for the server's log. */
export class V1LogDto {
  @IsString()
  @MaxLength(200)
  service!: string;

  @IsIn(['debug', 'info', 'warn', 'error'])
  level!: 'debug' | 'info' | 'warn' | 'error';

  @IsString()
  @MaxLength(10_000)
  message!: string;

  @IsOptional()
  @IsObject()
  extra?: Record<string, unknown>;
}

/** `POST /session/{id}/fork`: copy the history before `messageID` (all of it without). */
export class V1ForkDto {
  @IsOptional()
  @Matches(MESSAGE_ID, { message: 'messageID must be a message id (msg_…)' })
  messageID?: string;
}

/** `POST /session/{id}/summarize` (the TUI's /compact): the model that writes the summary. */
export class V1SummarizeDto {
  @IsOptional()
  @IsString()
  @MaxLength(200)
  providerID?: string;

  @IsOptional()
  @IsString()
  @MaxLength(200)
  modelID?: string;

  @IsOptional()
  @IsBoolean()
  auto?: boolean;
}

/** `POST /session/{id}/revert` (the TUI's /undo): undo from this message (and part) on. */
export class V1RevertDto {
  @Matches(MESSAGE_ID, { message: 'messageID must be a message id (msg_…)' })
  messageID!: string;

  @IsOptional()
  @IsString()
  @MaxLength(100)
  partID?: string;
}

/** `POST /session/{id}/command`: run a command template with its arguments. */
export class V1CommandDto {
  @IsString()
  @MaxLength(200)
  command!: string;

  @IsOptional()
  @IsString()
  @MaxLength(100_000)
  arguments?: string;

  @IsOptional()
  @Matches(MESSAGE_ID, { message: 'messageID must be a message id (msg_…)' })
  messageID?: string;

  @IsOptional()
  @IsString()
  @MaxLength(200)
  agent?: string;

  /** `provider/model` */
  @IsOptional()
  @IsString()
  @MaxLength(400)
  model?: string;

  @IsOptional()
  @IsString()
  @MaxLength(200)
  variant?: string;

  @IsOptional()
  @IsArray()
  parts?: unknown[];
}

/** `POST /experimental/worktree`: the worktree's name (its folder and branch `opencode/<name>`). */
export class V1WorktreeCreateDto {
  @IsOptional()
  @Matches(/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/, {
    message: 'name must be letters, digits, dots, dashes or underscores (at most 64)',
  })
  name?: string;
}

/** `DELETE /experimental/worktree`, `POST /experimental/worktree/reset`: which worktree. */
export class V1WorktreeTargetDto {
  @IsString()
  @MaxLength(4096)
  @Matches(/^\//, { message: 'directory must be an absolute path' })
  directory!: string;
}

/** `DELETE /pty/{ptyID}`. */
export class V1PtyParamsDto {
  @IsString()
  @MaxLength(200)
  ptyID!: string;
}

/** `POST /session/{id}/init`: the built-in `/init` command (write or improve AGENTS.md) with this model. */
export class V1InitDto {
  @IsOptional()
  @IsString()
  @MaxLength(200)
  providerID?: string;

  @IsOptional()
  @IsString()
  @MaxLength(200)
  modelID?: string;

  /** The SDK's id for the new message: checked, and Outpost gives the message its own. */
  @IsOptional()
  @Matches(MESSAGE_ID, { message: 'messageID must be a message id (msg_…)' })
  messageID?: string;
}
