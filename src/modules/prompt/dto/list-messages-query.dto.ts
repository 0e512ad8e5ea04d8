import { IsIn, IsOptional, IsString, Matches, MaxLength } from 'class-validator';

/** `GET /api/session/{id}/message`: the transcript in pages; with `cursor`, the order comes from the cursor. */
export class ListMessagesQueryDto {
  /** 1 to 1000; 50 when absent. */
  @IsOptional()
  @Matches(/^(?:[1-9]\d{0,2}|1000)$/, { message: 'limit must be a whole number from 1 to 1000' })
  limit?: string;

  /** `asc` (default): oldest first. */
  @IsOptional()
  @IsIn(['asc', 'desc'])
  order?: 'asc' | 'desc';

  @IsOptional()
  @IsString()
  @MaxLength(1000)
  cursor?: string;
}
