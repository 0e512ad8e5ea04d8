import { IsOptional, Matches, MaxLength } from 'class-validator';
import { OptionalLimit } from '@/common/http/optional-limit';

export class AuditQueryDto {
  /** `next_cursor` of the previous page. */
  @IsOptional()
  @Matches(/^aud_[0-9a-f]{16}[0-9A-Za-z]{12}$/)
  cursor?: string;

  /** Entries per page, 1–200 (default 50). */
  @OptionalLimit(200)
  limit?: number;

  /** Only what this person or service account did (`usr_…`, `sa_…`). */
  @IsOptional()
  @Matches(/^(usr|sa)_[0-9A-Za-z]{1,40}$/)
  actor?: string;

  /** Only entries of this action, e.g. `key.created`. */
  @IsOptional()
  @MaxLength(100)
  @Matches(/^[a-z_]+\.[a-z_]+$/)
  action?: string;
}
