import { NotFoundError } from '@/common/errors';

/** `provider.get` of a provider the location's config does not have (404, tagged as opencode tags it). */
export class ProviderLookupError extends NotFoundError {
  constructor(providerID: string) {
    super(`Provider not found: ${providerID}`, { providerID });
  }

  override get tag(): string {
    return 'ProviderNotFoundError';
  }
}

/** `integration.get`: Outpost has no integrations, so every id is unknown. */
export class IntegrationNotFoundError extends NotFoundError {
  constructor(integrationID: string) {
    super(`Integration not found: ${integrationID}`, { integrationID });
  }
}
