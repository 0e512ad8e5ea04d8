import { Type } from 'class-transformer';
import {
  IsBoolean,
  IsIn,
  IsNotEmpty,
  IsNumber,
  IsObject,
  IsOptional,
  IsString,
  Matches,
  MaxLength,
  ValidateNested,
} from 'class-validator';
import { V1MessageParamsDto } from './v1-session.dto';

/** `PUT /auth/{providerID}`, `DELETE /auth/{providerID}`: a provider's id, as configs name providers. */
export class V1AuthParamsDto {
  @Matches(/^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/, {
    message: 'providerID must be letters, digits, dots, dashes or underscores (at most 100)',
  })
  providerID!: string;
}

/**
 * opencode's `Auth` for `auth.set`: an API key (`{type: "api", key}`). OAuth and well-known credentials come from
 * opencode's own login flows, which a server does not run, so their types are refused.
 */
export class V1AuthDto {
  @IsIn(['api'], { message: 'type must be "api" (oauth and wellknown credentials are not kept by Outpost)' })
  type!: 'api';

  @IsString()
  @IsNotEmpty()
  @MaxLength(10_000)
  key!: string;

  @IsOptional()
  @IsObject()
  metadata?: Record<string, string>;

  // The members of opencode's other credential types, so a body of one is refused for its `type`.
  @IsOptional()
  @IsString()
  refresh?: string;

  @IsOptional()
  @IsString()
  access?: string;

  @IsOptional()
  @IsNumber()
  expires?: number;

  @IsOptional()
  @IsString()
  accountId?: string;

  @IsOptional()
  @IsString()
  enterpriseUrl?: string;

  @IsOptional()
  @IsString()
  token?: string;
}

/** `PATCH /project/{projectID}`. */
export class V1ProjectParamsDto {
  @IsString()
  @MaxLength(200)
  projectID!: string;
}

export class V1ProjectIconDto {
  @IsOptional()
  @IsString()
  @MaxLength(100_000)
  url?: string;

  @IsOptional()
  @IsString()
  @MaxLength(200)
  override?: string;

  @IsOptional()
  @IsString()
  @MaxLength(100)
  color?: string;
}

export class V1ProjectCommandsDto {
  /** Startup script run when a new workspace (worktree) is created. */
  @IsOptional()
  @IsString()
  @MaxLength(10_000)
  start?: string;
}

/** `PATCH /project/{projectID}` (`project.update`): what opencode's app shows of a project. */
export class V1ProjectUpdateDto {
  @IsOptional()
  @IsString()
  @MaxLength(200)
  name?: string;

  @IsOptional()
  @ValidateNested()
  @Type(() => V1ProjectIconDto)
  icon?: V1ProjectIconDto;

  @IsOptional()
  @ValidateNested()
  @Type(() => V1ProjectCommandsDto)
  commands?: V1ProjectCommandsDto;
}

/** `/session/{id}/message/{messageID}/part/{partID}`. */
export class V1PartParamsDto extends V1MessageParamsDto {
  @Matches(/^prt_[0-9A-Za-z]{1,60}$/, { message: 'partID must be a part id (prt_…)' })
  partID!: string;
}

/**
 * `PATCH /session/{id}/message/{messageID}/part/{partID}` (`part.update`): the part as it should be from now on
 * (opencode's `Part`). The members each type reads are checked where the part is put in place.
 */
export class V1PartDto {
  @IsString()
  @MaxLength(100)
  id!: string;

  @IsString()
  @MaxLength(100)
  sessionID!: string;

  @IsString()
  @MaxLength(100)
  messageID!: string;

  @IsIn(['text', 'reasoning', 'tool', 'file', 'step-start', 'step-finish'], {
    message: 'type must be text, reasoning, tool, file, step-start or step-finish',
  })
  type!: 'text' | 'reasoning' | 'tool' | 'file' | 'step-start' | 'step-finish';

  @IsOptional()
  @IsString()
  @MaxLength(10_000_000)
  text?: string;

  @IsOptional()
  @IsString()
  @MaxLength(200)
  mime?: string;

  @IsOptional()
  @IsString()
  @MaxLength(1000)
  filename?: string;

  @IsOptional()
  @IsString()
  @MaxLength(10_000_000)
  url?: string;

  @IsOptional()
  @IsString()
  @MaxLength(200)
  callID?: string;

  @IsOptional()
  @IsString()
  @MaxLength(200)
  tool?: string;

  @IsOptional()
  @IsObject()
  state?: Record<string, unknown>;

  // Members opencode's parts carry that Outpost derives (times, usage) or does not keep: accepted, not stored.
  @IsOptional()
  @IsObject()
  time?: Record<string, unknown>;

  @IsOptional()
  @IsObject()
  metadata?: Record<string, unknown>;

  @IsOptional()
  @IsObject()
  source?: Record<string, unknown>;

  @IsOptional()
  @IsBoolean()
  synthetic?: boolean;

  @IsOptional()
  @IsBoolean()
  ignored?: boolean;

  @IsOptional()
  @IsString()
  @MaxLength(200)
  snapshot?: string;

  @IsOptional()
  @IsString()
  @MaxLength(200)
  reason?: string;

  @IsOptional()
  @IsNumber()
  cost?: number;

  @IsOptional()
  @IsObject()
  tokens?: Record<string, unknown>;
}
