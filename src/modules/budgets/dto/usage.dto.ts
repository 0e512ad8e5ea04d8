import { IsIn, IsISO8601, IsOptional } from 'class-validator';

export const USAGE_GROUPS = ['member', 'key', 'model', 'day'] as const;
export type UsageGroup = (typeof USAGE_GROUPS)[number];

export class UsageQueryDto {
  /** ISO-8601 start (inclusive); default: the start of this UTC month. */
  @IsOptional()
  @IsISO8601({ strict: true })
  from?: string;

  /** ISO-8601 end (exclusive); default: now. */
  @IsOptional()
  @IsISO8601({ strict: true })
  to?: string;

  /** What each row sums over; default `member`. `day` is a UTC calendar day. */
  @IsOptional()
  @IsIn(USAGE_GROUPS)
  group_by?: UsageGroup;
}

export class UsageRowDto {
  /** The member (`usr_…`/`sa_…`), key id (`key_…`, or `session` for the console cookie), model, or `YYYY-MM-DD`. */
  key!: string;
  /** Micro-cents, a decimal string. */
  spent_micro_cents!: string;
  requests!: number;
  input_tokens!: number;
  output_tokens!: number;
}

export class UsageReportDto {
  from!: string;
  to!: string;
  group_by!: UsageGroup;
  data!: UsageRowDto[];
}
