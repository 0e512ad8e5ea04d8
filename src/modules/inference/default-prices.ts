/**
 * List prices of well-known models in USD per million tokens, a vendored snapshot (2026-11-01) of the
 * providers' public price pages. The operator's catalogue overrides any of them per model.
 */
export interface Prices {
  input: number;
  output: number;
  cache_read?: number;
  cache_write?: number;
}

export const DEFAULT_PRICES: Record<string, Prices> = {
  'gpt-4o': { input: 2.5, output: 10, cache_read: 1.25 },
  'gpt-4o-mini': { input: 0.15, output: 0.6, cache_read: 0.075 },
  'gpt-4.1': { input: 2, output: 8, cache_read: 0.5 },
  'gpt-4.1-mini': { input: 0.4, output: 1.6, cache_read: 0.1 },
  'gpt-4.1-nano': { input: 0.1, output: 0.4, cache_read: 0.025 },
  o3: { input: 2, output: 8, cache_read: 0.5 },
  'o4-mini': { input: 1.1, output: 4.4, cache_read: 0.275 },
  'gpt-5': { input: 1.25, output: 10, cache_read: 0.125 },
  'gpt-5-mini': { input: 0.25, output: 2, cache_read: 0.025 },
  'claude-opus-4-1': { input: 15, output: 75, cache_read: 1.5, cache_write: 18.75 },
  'claude-sonnet-4-5': { input: 3, output: 15, cache_read: 0.3, cache_write: 3.75 },
  'claude-sonnet-4': { input: 3, output: 15, cache_read: 0.3, cache_write: 3.75 },
  'claude-haiku-4-5': { input: 1, output: 5, cache_read: 0.1, cache_write: 1.25 },
  'claude-3-5-haiku': { input: 0.8, output: 4, cache_read: 0.08, cache_write: 1 },
};
