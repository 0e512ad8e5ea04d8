import { IsIn, IsOptional, IsString, MaxLength } from 'class-validator';
import { OptionalLimit } from '../../../common/http/optional-limit';
import { V1QueryDto } from './v1-query.dto';

/** `GET /find/file`: the TUI's `@` file picker. */
export class V1FindFilesQueryDto extends V1QueryDto {
  @IsOptional()
  @IsString()
  @MaxLength(500)
  query?: string;

  /** `"false"` leaves directories out. */
  @IsOptional()
  @IsIn(['true', 'false'])
  dirs?: 'true' | 'false';

  @IsOptional()
  @IsIn(['file', 'directory'])
  type?: 'file' | 'directory';

  @OptionalLimit(200)
  limit?: number;
}

/** `GET /file` and `/file/content`: a path inside the location. */
export class V1FilePathQueryDto extends V1QueryDto {
  @IsString()
  @MaxLength(4096)
  path!: string;
}
