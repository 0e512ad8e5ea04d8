import { Type } from 'class-transformer';
import { IsArray, IsObject, IsOptional, IsString, Matches, MaxLength, ValidateNested } from 'class-validator';
import { LocationRefDto } from '../../locations/dto/location-query.dto';
import { SESSION_ID } from '../session-ids';
import { ModelRefDto } from './model-ref.dto';
import { PermissionRuleDto } from './permission-rule.dto';

/** `session.create`: every member optional; no others allowed. */
export class CreateSessionDto {
  /** A client-chosen id in opencode's format (`ses_…`); a taken one is a 409. */
  @IsOptional()
  @Matches(SESSION_ID, { message: 'id must be a session id (ses_…)' })
  id?: string | null;

  /** Creates a child at the parent's location, inheriting its metadata unless `metadata` is given. */
  @IsOptional()
  @Matches(SESSION_ID, { message: 'parentID must be a session id (ses_…)' })
  parentID?: string | null;

  @IsOptional()
  @IsString()
  @MaxLength(1000)
  title?: string | null;

  @IsOptional()
  @IsString()
  @MaxLength(200)
  agent?: string | null;

  @IsOptional()
  @ValidateNested()
  @Type(() => ModelRefDto)
  model?: ModelRefDto | null;

  @IsOptional()
  @ValidateNested()
  @Type(() => LocationRefDto)
  location?: LocationRefDto | null;

  @IsOptional()
  @IsObject()
  metadata?: Record<string, unknown> | null;

  @IsOptional()
  @IsArray()
  @ValidateNested({ each: true })
  @Type(() => PermissionRuleDto)
  permissions?: PermissionRuleDto[] | null;
}
