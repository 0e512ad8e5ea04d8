import {
  ArrayMaxSize,
  IsArray,
  IsIn,
  IsObject,
  IsOptional,
  IsString,
  Matches,
  MaxLength,
} from 'class-validator';
import { SESSION_ID } from '../../sessions/session-ids';

export class PermissionReplyParamsDto {
  @Matches(SESSION_ID, { message: 'sessionID must be a session id (ses_…)' })
  sessionID!: string;

  @IsString()
  @MaxLength(64)
  @Matches(/^per_[0-9A-Za-z]+$/, { message: 'requestID must be a permission request id (per_…)' })
  requestID!: string;
}

/** `once` allows this call, `always` also adds an allow rule to the session, `reject` refuses it. */
export class PermissionReplyDto {
  @IsIn(['once', 'always', 'reject'])
  reply!: 'once' | 'always' | 'reject';

  /** Why, for a `reject`: the model sees it with the refusal. */
  @IsOptional()
  @IsString()
  @MaxLength(10_000)
  message?: string | null;
}

/** `session.permission.create`: ask the session's rules about an action on resources. */
export class PermissionCreateDto {
  @IsOptional()
  @IsString()
  @MaxLength(100)
  id?: string;

  @IsString()
  @MaxLength(200)
  action!: string;

  @IsArray()
  @ArrayMaxSize(100)
  @IsString({ each: true })
  @MaxLength(4096, { each: true })
  resources!: string[];

  @IsOptional()
  @IsArray()
  @ArrayMaxSize(100)
  @IsString({ each: true })
  @MaxLength(4096, { each: true })
  save?: string[];

  @IsOptional()
  @IsObject()
  metadata?: Record<string, unknown>;

  @IsOptional()
  @IsObject()
  source?: Record<string, unknown>;

  @IsOptional()
  @IsString()
  @MaxLength(200)
  agent?: string;
}

export class PermissionCreatedDto {
  id!: string;
  effect!: 'allow' | 'deny' | 'ask';
}

export class PermissionCreatedResponseDto {
  data!: PermissionCreatedDto;
}
