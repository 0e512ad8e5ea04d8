import type { ProviderPackage } from './provider-packages';

export type ProviderFamily = 'anthropic' | 'openai' | 'other';

/** The family of a model, by the provider package it runs on, else by its id. */
export function providerFamily(providerPackage: string | undefined, modelID: string): ProviderFamily {
  if (providerPackage === ('aisdk:@ai-sdk/anthropic' satisfies ProviderPackage) || /claude/i.test(modelID)) {
    return 'anthropic';
  }
  if (
    providerPackage === ('aisdk:@ai-sdk/openai' satisfies ProviderPackage) ||
    /(^|\/)(gpt-|o[134]\b|o[134]-|codex)/i.test(modelID)
  ) {
    return 'openai';
  }
  return 'other';
}
