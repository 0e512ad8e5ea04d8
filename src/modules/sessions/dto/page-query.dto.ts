import { IsIn, IsOptional, Matches } from 'class-validator';

/** The paging members of a list query (sessions, messages). */
export class PageQueryDto {
  /** 1 to 1000; 50 when absent. */
  @IsOptional()
  @Matches(/^(?:[1-9]\d{0,2}|1000)$/, { message: 'limit must be a whole number from 1 to 1000' })
  limit?: string;

  /** The order of the first page; with a cursor, the order comes from the cursor. */
  @IsOptional()
  @IsIn(['asc', 'desc'])
  order?: 'asc' | 'desc';
}
