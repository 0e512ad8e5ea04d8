import { microCentsToDollars } from '@/common/money';
import { searchBaseUrl } from '@/common/web-search/web-search';
import { SearchProviderDto } from './dto/search-provider.dto';
import { SearchProviderEntity } from './search-provider.entity';

/** The gateway's model name of a search provider, as keys' `allowed_models` and the request log name it. */
export function searchModel(providerId: string): string {
  return `search/${providerId}`;
}

/** The search provider as answers show it: the key only by its last four characters. */
export function searchProviderView(provider: SearchProviderEntity): SearchProviderDto {
  return {
    id: provider.id,
    name: provider.name,
    kind: provider.kind,
    base_url: searchBaseUrl({ kind: provider.kind, baseUrl: provider.baseUrl ?? undefined }) ?? '',
    api_key_last4: provider.credentialLast4,
    price_per_1000: microCentsToDollars(provider.pricePer1000MicroCents),
    model: searchModel(provider.id),
    created_at: provider.createdAt.toISOString(),
    updated_at: provider.updatedAt.toISOString(),
  };
}
