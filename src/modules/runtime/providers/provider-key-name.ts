/**
 * The `{env:NAME}` name a provider's stored key goes by (`OUTPOST_KEY_LOCAL_LLM` for `local-llm`): the web app's
 * Models page references it from the config, and a provider configured without an `apiKey` falls back to it
 * (what opencode's `auth set` stores for the provider).
 */
export function keyName(providerID: string): string {
  return `OUTPOST_KEY_${providerID.toUpperCase().replace(/-/g, '_')}`;
}
