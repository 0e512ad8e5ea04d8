import { Type } from 'class-transformer';
import { IsOptional, IsString, Matches, MaxLength, ValidateNested } from 'class-validator';
import { LocationRefDto } from '../../locations/dto/location-query.dto';
import { SESSION_ID } from '../session-ids';
import { PageQueryDto } from './page-query.dto';

/** `session.list` query. With `cursor`, the filters and the order come from the cursor. */
export class ListSessionsQueryDto extends PageQueryDto {
  /** Case-insensitive substring of the title. */
  @IsOptional()
  @IsString()
  @MaxLength(1000)
  search?: string;

  /** A session id, or `null` for root sessions only. */
  @IsOptional()
  @Matches(new RegExp(`^null$|${SESSION_ID.source}`), { message: 'parentID must be a session id or null' })
  parentID?: string;

  @IsOptional()
  @IsString()
  @MaxLength(4096)
  @Matches(/^\//, { message: 'directory must be an absolute path' })
  directory?: string;

  @IsOptional()
  @IsString()
  @MaxLength(200)
  project?: string;

  @IsOptional()
  @IsString()
  @MaxLength(4096)
  subpath?: string;

  @IsOptional()
  @IsString()
  cursor?: string;

  /** Sent by older opencode clients; ignored. */
  @IsOptional()
  @IsString()
  workspace?: string;

  /** opencode's v2 client adds `location[directory]` next to `directory` on every GET; `directory` filters. */
  @IsOptional()
  @ValidateNested()
  @Type(() => LocationRefDto)
  location?: LocationRefDto | null;
}
