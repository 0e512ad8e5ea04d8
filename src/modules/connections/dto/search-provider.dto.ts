import { OmitType, PartialType } from '@nestjs/swagger';
import { IsIn, IsNumber, IsOptional, IsString, Length, Max, Min } from 'class-validator';
import { SEARCH_KINDS, SearchKind } from '@/common/web-search/web-search.types';
import { apply, credentialRules, IsBaseUrl } from './connection.dto';

/** The most a workspace may charge for 1,000 searches, in USD: a larger figure is a typo. */
const MAX_PRICE_PER_1000 = 10_000;

export class CreateSearchProviderDto {
  /** The search API: `brave`, `tavily`, `exa`, or `searxng` (self-hosted, no key). */
  @IsIn(SEARCH_KINDS)
  kind!: SearchKind;

  /** What the console shows; the kind when absent. */
  @IsOptional()
  @IsString()
  @Length(1, 200)
  name?: string;

  /** The API's root (`https://api.search.brave.com/res/v1`, `https://api.tavily.com`, `https://api.exa.ai`); required for SearXNG. */
  @IsOptional()
  @IsBaseUrl()
  base_url?: string;

  /** The provider's API key (not for SearXNG). Write-only: answers show only its last four characters. */
  @IsOptional()
  @apply(credentialRules)
  api_key?: string;

  /** USD per 1,000 searches, billed to the caller (0 when absent). */
  @IsOptional()
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(0)
  @Max(MAX_PRICE_PER_1000)
  price_per_1000?: number;
}

/** Only the members present change; `api_key` replaces the stored key. The kind stays. */
export class UpdateSearchProviderDto extends PartialType(
  OmitType(CreateSearchProviderDto, ['kind'] as const),
) {}

export class SearchProviderDto {
  /** `srch_…`: what the workspace config's `websearch.providerID` names. */
  id!: string;
  name!: string;
  kind!: SearchKind;
  /** Where searches go: the given base URL, or the provider's public API. */
  base_url!: string;
  /** The key's last four characters; null without a key or when it is shorter than 8. */
  api_key_last4!: string | null;
  price_per_1000!: number;
  /** What keys name in `allowed_models` to use it: `search/<id>`. */
  model!: string;
  created_at!: string;
  updated_at!: string;
}
