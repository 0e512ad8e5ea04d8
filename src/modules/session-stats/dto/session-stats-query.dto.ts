import { IsIn, IsOptional, IsString, Matches, MaxLength } from 'class-validator';

const EPOCH_MS = /^\d{1,15}$/;

export class SessionStatsQueryDto {
  /** Start of the range, epoch ms (inclusive); default: the earliest message. */
  @IsOptional()
  @Matches(EPOCH_MS, { message: 'from must be epoch milliseconds' })
  from?: string;

  /** End of the range, epoch ms (exclusive); default: now. */
  @IsOptional()
  @Matches(EPOCH_MS, { message: 'to must be epoch milliseconds' })
  to?: string;

  /** Only sessions of this project. */
  @IsOptional()
  @IsString()
  @MaxLength(200)
  project?: string;

  /** IANA time zone of the calendar days; default UTC. */
  @IsOptional()
  @IsString()
  @MaxLength(64)
  timezone?: string;

  /** How far to look into tool calls; default summary. */
  @IsOptional()
  @IsIn(['none', 'summary', 'detail'])
  tools?: 'none' | 'summary' | 'detail';
}
