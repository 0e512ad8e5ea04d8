/** The AI SDK provider packages Outpost can drive, as written in config (`package: "aisdk:<npm name>"`). */
export const PROVIDER_PACKAGES = [
  'aisdk:@ai-sdk/openai-compatible',
  'aisdk:@ai-sdk/openai',
  'aisdk:@ai-sdk/anthropic',
] as const;

export type ProviderPackage = (typeof PROVIDER_PACKAGES)[number];
