import { IsIn, IsOptional } from 'class-validator';

export class ExportSessionQueryDto {
  /** `true` replaces every piece of user content by `[redacted:<kind>:<id>]`. */
  @IsOptional()
  @IsIn(['true', 'false'])
  sanitize?: 'true' | 'false';
}
