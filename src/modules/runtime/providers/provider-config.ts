/** The AI SDK provider packages Outpost can drive, as written in config (`package: "aisdk:<npm name>"`). */
export const PROVIDER_PACKAGES = [
  'aisdk:@ai-sdk/openai-compatible',
  'aisdk:@ai-sdk/openai',
  'aisdk:@ai-sdk/anthropic',
] as const;

export type ProviderPackage = (typeof PROVIDER_PACKAGES)[number];

/** Prices in USD per million tokens. `cache_read` / `cache_write` default to `input`. */
export interface ModelCost {
  input: number;
  output: number;
  cache_read?: number;
  cache_write?: number;
}

export interface ModelLimit {
  context?: number;
  output?: number;
}

export interface ModelConfig {
  name?: string;
  cost?: ModelCost;
  limit?: ModelLimit;
  /** Named provider options (e.g. `{ "high": { "reasoningEffort": "high" } }`), picked by `Model.Ref.variant`. */
  variants?: Record<string, Record<string, unknown>>;
}

/** Strings may hold `{env:NAME}`, replaced from the environment each time a model is built. */
export interface ProviderSettings {
  baseURL?: string;
  apiKey?: string;
}

export interface ProviderConfig {
  name?: string;
  package: ProviderPackage;
  settings?: ProviderSettings;
  headers?: Record<string, string>;
  models: Record<string, ModelConfig>;
}

/** The config's `provider` map, keyed by provider id. Same shape as the console's workspace config. */
export type ProviderConfigMap = Record<string, ProviderConfig>;

export interface ModelRef {
  providerID: string;
  id: string;
  variant?: string;
}
