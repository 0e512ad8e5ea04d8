import { IsOptional, IsString, Matches, MaxLength } from 'class-validator';
import { MESSAGE_ID } from '../../sessions/session-ids';

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
