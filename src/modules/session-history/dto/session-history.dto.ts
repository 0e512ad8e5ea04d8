import { IsOptional, IsString, Matches, MaxLength } from 'class-validator';
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
