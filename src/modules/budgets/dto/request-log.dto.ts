import { Type } from 'class-transformer';
import { IsIn, IsInt, IsISO8601, IsOptional, Matches, Max, MaxLength, Min } from 'class-validator';
import { OptionalLimit } from '@/common/http/optional-limit';

export class RequestLogQueryDto {
  /** Rows per page, 1–1000 (default 100). */
  @OptionalLimit(1000)
  limit?: number;

  /** `next_cursor` of the previous page. */
  @IsOptional()
  @Matches(/^rql_[0-9A-Z]{26}$/)
  cursor?: string;

  /** Only this key's calls (`key_…`). */
  @IsOptional()
  @Matches(/^key_[0-9A-Za-z]{1,40}$/)
  key?: string;

  /** Only calls naming (or served by) this model or route. */
  @IsOptional()
  @MaxLength(200)
  model?: string;

  /** Only this member's calls (`usr_…`, `sa_…`); members see only their own whatever they ask. */
  @IsOptional()
  @Matches(/^(usr|sa)_[0-9A-Za-z]{1,40}$/)
  member?: string;

  /** Only calls answered with this HTTP status. */
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(100)
  @Max(599)
  status?: number;

  /** ISO-8601 start (inclusive). */
  @IsOptional()
  @IsISO8601({ strict: true })
  from?: string;

  /** ISO-8601 end (exclusive). */
  @IsOptional()
  @IsISO8601({ strict: true })
  to?: string;

  /** `csv` for a CSV file of the page (up to `limit` rows) instead of JSON. */
  @IsOptional()
  @IsIn(['json', 'csv'])
  format?: 'json' | 'csv';
}

export class RequestLogRowDto {
  id!: string;
  request_id!: string;
  /** ISO-8601. */
  time!: string;
  member!: string;
  key!: string | null;
  route!: string;
  model!: string;
  served_by!: string | null;
  status!: number;
  /** `answered`, `upstream_refused`, `budget_refused`, `rate_limited`, `policy_refused`, `invalid`, `failed`, `client_left`. */
  outcome!: string;
  input_tokens!: number;
  output_tokens!: number;
  /** Micro-cents, a decimal string. */
  cost_micro_cents!: string;
  duration_ms!: number;
  ttfb_ms!: number | null;
  /** The member's name (a person's, or a service account's); null when no longer known. */
  member_name?: string | null;
  /** The key's name (a service account's as `account / key`); null without a key or when no longer known. */
  key_name?: string | null;
  /** The model as a person reads it: a connection's as `<connection> / <model name>`, others as called. */
  model_name?: string;
  /** `served_by` named the same way. */
  served_by_name?: string | null;
}

export class RequestLogPageDto {
  data!: RequestLogRowDto[];
  /** Pass as `cursor` for the next (older) page; null on the last page. */
  next_cursor!: string | null;
}
