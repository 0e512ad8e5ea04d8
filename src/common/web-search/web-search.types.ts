/** The search APIs Outpost speaks, each over its own documented request and answer. */
export const SEARCH_KINDS = ['brave', 'tavily', 'exa', 'searxng'] as const;
export type SearchKind = (typeof SEARCH_KINDS)[number];

/** One result as Outpost hands it on: what the model reads and the URL it may fetch. */
export interface SearchResult {
  title: string;
  url: string;
  snippet: string;
}

/** Where a search goes: the API, its base URL (the provider's own when absent) and its key (none for SearXNG). */
export interface SearchTarget {
  kind: SearchKind;
  baseUrl?: string;
  apiKey?: string;
}

/** The HTTP request one search is. */
export interface SearchRequest {
  method: 'GET' | 'POST';
  url: string;
  headers: Record<string, string>;
  body?: string;
}

/** One search API: how a query is asked, and where the results are in its answer. */
export interface SearchProtocol {
  /** The public API's base URL; SearXNG has none (it is self-hosted). */
  defaultBaseUrl?: string;
  needsKey: boolean;
  request(baseUrl: string, apiKey: string | undefined, query: string, max: number): SearchRequest;
  /** The answer's results as `{title, url, snippet}`; entries without a URL are left out. */
  results(answer: unknown): SearchResult[];
}
