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
