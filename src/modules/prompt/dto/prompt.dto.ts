import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsObject,
  IsOptional,
  IsString,
  Matches,
  MaxLength,
  ValidateNested,
} from 'class-validator';

/** A client-chosen message id: `msg_` then letters, digits, `_` or `-`. */
export const PROMPT_MESSAGE_ID = /^msg_[0-9A-Za-z_-]{1,60}$/;

/**
 * A file attachment: `{ data (base64), mime, source, name?, description?, mention? }`, or the older
 * `{ uri, mime?, name?, description?, source?: { start, end, text } }` form of 1.18.33 clients.
 */
export class FileAttachmentDto {
  @IsOptional()
  @IsString()
  data?: string;

  @IsOptional()
  @IsString()
  @MaxLength(200)
  mime?: string;

  @IsOptional()
  @IsString()
  @MaxLength(8192)
  uri?: string;

  @IsOptional()
  @IsObject()
  source?: Record<string, unknown>;

  @IsOptional()
  @IsString()
  @MaxLength(1000)
  name?: string;

  @IsOptional()
  @IsString()
  @MaxLength(10_000)
  description?: string;

  @IsOptional()
  @IsObject()
  mention?: Record<string, unknown>;
}

/** `{ name, mention? }` (older clients: `source` for the mention). */
export class AgentAttachmentDto {
  @IsString()
  @MaxLength(200)
  name!: string;

  @IsOptional()
  @IsObject()
  mention?: Record<string, unknown>;

  @IsOptional()
  @IsObject()
  source?: Record<string, unknown>;
}

/** What may come with the text: files and agent mentions. */
class PromptAttachmentsDto {
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(100)
  @ValidateNested({ each: true })
  @Type(() => FileAttachmentDto)
  files?: FileAttachmentDto[] | null;

  @IsOptional()
  @IsArray()
  @ArrayMaxSize(100)
  @ValidateNested({ each: true })
  @Type(() => AgentAttachmentDto)
  agents?: AgentAttachmentDto[] | null;
}

/** The nested prompt of 1.18.33 clients (`{ prompt: { text, files?, agents? } }`). */
export class PromptPartsDto extends PromptAttachmentsDto {
  @IsString()
  @MaxLength(1_000_000)
  text!: string;
}

/**
 * `session.prompt`: the flat body (`text`, `files?`, `agents?`, `metadata?` at the top), or the nested `prompt` of
 * older clients; `text` is required in one of the two places.
 */
export class PromptDto extends PromptAttachmentsDto {
  /** Idempotency key: a prompt retried with the same id is a 409, not a second prompt. */
  @IsOptional()
  @Matches(PROMPT_MESSAGE_ID, { message: 'id must be a message id (msg_…)' })
  id?: string | null;

  @IsOptional()
  @IsString()
  @MaxLength(1_000_000)
  text?: string;

  @IsOptional()
  @IsArray()
  @ArrayMaxSize(100)
  skills?: unknown[] | null;

  @IsOptional()
  @IsObject()
  metadata?: Record<string, unknown> | null;

  @IsOptional()
  @ValidateNested()
  @Type(() => PromptPartsDto)
  prompt?: PromptPartsDto;

  /** `steer` (default): at the next step boundary of a running drain; `queue`: after the current run. */
  @IsOptional()
  @IsIn(['steer', 'queue'])
  delivery?: 'steer' | 'queue' | null;

  /** `false`: admit only, without waking the drain. */
  @IsOptional()
  @IsBoolean()
  resume?: boolean | null;
}
