import { IsIn, IsOptional, IsString, Matches, MaxLength } from 'class-validator';
import { OptionalLimit } from '@/common/http/optional-limit';
import { LocationQueryDto } from '../../locations/dto/location-query.dto';
import { MESSAGE_ID } from '../../sessions/session-ids';
import { SessionIdParamsDto } from '../../sessions/dto/session-id-params.dto';

export class MessageParamsDto extends SessionIdParamsDto {
  @Matches(MESSAGE_ID, { message: 'messageID must be a message id (msg_…)' })
  messageID!: string;
}

export class HistoryQueryDto {
  /** At most this many events (default 100, at most 1000). */
  @IsOptional()
  @Matches(/^([1-9][0-9]{0,2}|1000)$/, { message: 'limit must be a number from 1 to 1000' })
  limit?: string;

  /** Only events after this `seq`. */
  @IsOptional()
  @Matches(/^[0-9]{1,9}$/, { message: 'after must be a sequence number' })
  after?: string;
}

export class SessionEventsQueryDto {
  /** Replay only events after this `seq` (or event id `<sessionID>:<seq>`). */
  @IsOptional()
  @IsString()
  @MaxLength(100)
  after?: string;
}

export class SavedPermissionsQueryDto {
  @IsOptional()
  @IsString()
  @MaxLength(200)
  projectID?: string;
}

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

export class RevertStageDto {
  @Matches(MESSAGE_ID, { message: 'messageID must be a message id (msg_…)' })
  messageID!: string;

  @IsOptional()
  @IsString()
  @MaxLength(100)
  partID?: string;

  @IsOptional()
  files?: unknown;
}
