import { IsInt, IsOptional, IsString, Length, Max, Min } from 'class-validator';
import { MAX_SEARCH_RESULTS } from '@/common/web-search/web-search';

export class SearchRequestDto {
  /** What to search the web for. */
  @IsString()
  @Length(1, 2000)
  query!: string;

  /** How many results at most (5 when absent). */
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(MAX_SEARCH_RESULTS)
  max_results?: number;
}

export class SearchResultDto {
  title!: string;
  url!: string;
  snippet!: string;
}

export class SearchAnswerDto {
  results!: SearchResultDto[];
}
