import { IsIn, IsOptional, IsString, MaxLength } from 'class-validator';
import { OptionalLimit } from '@/common/http/optional-limit';
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

/** `GET /find`: text search in the location's files (`pattern` is a regular expression). */
export class V1FindTextQueryDto extends V1QueryDto {
  @IsString()
  @MaxLength(1000)
  pattern!: string;
}

/** `GET /experimental/tool`: the tools as a model of `provider` would be offered them. */
export class V1ToolListQueryDto extends V1QueryDto {
  @IsString()
  @MaxLength(200)
  provider!: string;

  @IsString()
  @MaxLength(200)
  model!: string;
}

/** `GET /vcs/diff`: `git` (the working tree against HEAD) or `branch` (served the same). */
export class V1VcsDiffQueryDto extends V1QueryDto {
  @IsOptional()
  @IsIn(['git', 'branch'])
  mode?: 'git' | 'branch';

  @IsOptional()
  @IsString()
  @MaxLength(10)
  context?: string;
}

/** `GET /find/symbol`: workspace symbols matching `query`. */
export class V1FindSymbolsQueryDto extends V1QueryDto {
  @IsOptional()
  @IsString()
  @MaxLength(500)
  query?: string;
}
