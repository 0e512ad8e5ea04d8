import { Type } from 'class-transformer';
import { IsArray, IsObject, IsOptional, IsString, MaxLength, ValidateNested } from 'class-validator';
import { PermissionRuleDto } from './permission-rule.dto';

/** `session.update`: a member left out stays as it is; `null` clears it. */
export class UpdateSessionDto {
  @IsOptional()
  @IsString()
  @MaxLength(1000)
  title?: string | null;

  @IsOptional()
  @IsObject()
  metadata?: Record<string, unknown> | null;

  @IsOptional()
  @IsArray()
  @ValidateNested({ each: true })
  @Type(() => PermissionRuleDto)
  permissions?: PermissionRuleDto[] | null;
}
