import { SEARCH_KINDS, SearchKind } from '@/common/web-search/web-search.types';

/** A problem by path (`websearch.provider`), as `config-validation` reports them. */
interface FieldProblem {
  path: string;
  message: string;
}

/** Where `websearch` sends searches: a search API itself, or an Outpost gateway's `POST <baseURL>/v1/search`. */
export const WEBSEARCH_PROVIDERS = [...SEARCH_KINDS, 'outpost'] as const;
export type WebSearchProvider = SearchKind | 'outpost';

/**
 * The `websearch` member of a config file: the agent gets its `websearch` tool when one is set. `apiKey` and header
 * values may hold `{env:NAME}`, read when a search runs.
 */
export interface WebSearchConfig {
  provider: WebSearchProvider;
  /** The API's root; required for `searxng` and `outpost` (the gateway's `/inference` URL). */
  baseURL?: string;
  apiKey?: string;
  /** Sent with every search (the console's workspace header, say). */
  headers?: Record<string, string>;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function isHttpUrl(value: unknown): value is string {
  if (typeof value !== 'string') return false;
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

/** The `websearch` member checked; undefined (with the problem reported) when it is unusable. */
export function parseWebSearch(raw: unknown, problems: FieldProblem[]): WebSearchConfig | undefined {
  const fail = (path: string, message: string) => {
    problems.push({ path, message });
    return undefined;
  };
  if (!isRecord(raw))
    return fail('websearch', 'must be an object: { provider, baseURL?, apiKey?, headers? }');
  const provider = raw.provider;
  if (typeof provider !== 'string' || !(WEBSEARCH_PROVIDERS as readonly string[]).includes(provider))
    return fail('websearch.provider', `must be one of ${WEBSEARCH_PROVIDERS.join(', ')}`);
  if (raw.baseURL !== undefined && !isHttpUrl(raw.baseURL))
    return fail('websearch.baseURL', 'must be an http(s) URL');
  if ((provider === 'searxng' || provider === 'outpost') && raw.baseURL === undefined)
    return fail('websearch.baseURL', `is required for ${provider}`);
  if (raw.apiKey !== undefined && typeof raw.apiKey !== 'string')
    return fail('websearch.apiKey', 'must be a string, e.g. "{env:BRAVE_API_KEY}"');
  const headers = raw.headers;
  if (
    headers !== undefined &&
    (!isRecord(headers) || !Object.values(headers).every((value) => typeof value === 'string'))
  )
    return fail('websearch.headers', 'must be an object of header → text');
  return {
    provider: provider as WebSearchProvider,
    ...(raw.baseURL !== undefined ? { baseURL: raw.baseURL } : {}),
    ...(raw.apiKey !== undefined ? { apiKey: raw.apiKey } : {}),
    ...(headers !== undefined ? { headers: headers as Record<string, string> } : {}),
  };
}
