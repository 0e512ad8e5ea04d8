import { TaggedError } from '@/common/errors';

export class ProviderNotFoundError extends TaggedError {
  readonly status = 400;
  constructor(providerID: string) {
    super(`Provider not configured: ${providerID}`, { providerID });
  }
}

export class ModelNotFoundError extends TaggedError {
  readonly status = 400;
  constructor(providerID: string, modelID: string, variant?: string) {
    super(
      variant === undefined
        ? `Model not configured: ${providerID}/${modelID}`
        : `Model variant not configured: ${providerID}/${modelID} (${variant})`,
      { providerID, modelID, ...(variant === undefined ? {} : { variant }) },
    );
  }
}

/** A provider's config is unusable: unknown package, missing base URL, or a `{env:NAME}` that is not set. */
export class ProviderConfigError extends TaggedError {
  readonly status = 400;
  constructor(providerID: string, problem: string) {
    super(`Provider ${providerID}: ${problem}`, { providerID });
  }
}
