import { IsIn, IsOptional, IsString, MaxLength } from 'class-validator';
import { OptionalLimit } from '@/common/http/optional-limit';
import { LocationQueryDto } from '../../locations/dto/location-query.dto';

export class FsListQueryDto extends LocationQueryDto {
  /** A directory inside the location, relative to it (default: the location itself). */
  @IsOptional()
  @IsString()
  @MaxLength(4096)
  path?: string;
}

export class FsFindQueryDto extends LocationQueryDto {
  /** Matched against names and paths (the letters in order at the least), case aside; empty lists everything. */
  @IsString()
  @MaxLength(500)
  query!: string;

  @IsOptional()
  @IsIn(['file', 'directory'])
  type?: 'file' | 'directory';

  /** At most this many entries, 1 to 200 (default 20). */
  @OptionalLimit(200)
  limit?: number;
}
