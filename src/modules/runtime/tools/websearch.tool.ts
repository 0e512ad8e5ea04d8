import { OutboundHttp, refusedAddress } from '@/common/net/outbound-http';
import { ALLOW_VARIABLE } from '@/common/net/outbound.config';
import {
  MAX_SEARCH_RESULTS,
  numberedResults,
  searchWeb,
  WebSearchError,
} from '@/common/web-search/web-search';
import { SearchResult } from '@/common/web-search/web-search.types';
import type { WebSearchConfig } from '../../location-config/websearch-config';
import { substituteEnv } from '../providers/env-template';
import { ToolAbortedError, ToolError } from './tool.errors';
import { AnyTool, Tool, ToolContext } from './tool.types';

export interface WebSearchInput {
  query: string;
  max_results?: number;
}

const DEFAULT_RESULTS = 5;

/** `{env:NAME}` in a setting, from the environment or what a config source holds (the console's token). */
type Env = (name: string) => string | undefined;

/** The tool's id (and its permission action), as opencode names it. */
export const WEBSEARCH_TOOL_ID = 'websearch';

/** What the model is told of `websearch`, wherever it is offered or listed (`GET /experimental/tool`). */
export const WEBSEARCH_SPEC = {
  description:
    'Search the web. Returns numbered results (title, URL, snippet); read a page with webfetch. ' +
    `\`max_results\`: 1 to ${MAX_SEARCH_RESULTS} (default ${DEFAULT_RESULTS}).`,
  inputSchema: {
    type: 'object',
    properties: {
      query: { type: 'string', minLength: 1 },
      max_results: { type: 'integer', minimum: 1, maximum: MAX_SEARCH_RESULTS },
    },
    required: ['query'],
    additionalProperties: false,
  },
};

/**
 * `websearch`: the web searched through the location's `websearch` provider (a search API, or an Outpost gateway's
 * `POST /v1/search`, which the console link sets up), every call through the server's outbound guard. The model
 * gets numbered titles, URLs and snippets, and follows them with `webfetch`.
 */
export function webSearchTool(config: WebSearchConfig, env: Env): AnyTool {
  const tool: Tool<WebSearchInput> = {
    name: WEBSEARCH_TOOL_ID,
    action: WEBSEARCH_TOOL_ID,
    ...WEBSEARCH_SPEC,
    permissions: (input) => [{ action: 'websearch', resource: input.query }],
    async run(input, ctx) {
      if (!ctx.outbound) throw new ToolError('websearch: this server makes no outbound calls here');
      const max = input.max_results ?? DEFAULT_RESULTS;
      const results = await search(config, env, ctx.outbound, input.query, max, ctx);
      return {
        output: numbered(input.query, results),
        title: `websearch: ${input.query}`,
        metadata: { provider: config.provider, results: results.length },
      };
    },
  };
  return tool as AnyTool;
}

async function search(
  config: WebSearchConfig,
  env: Env,
  http: OutboundHttp,
  query: string,
  max: number,
  ctx: ToolContext,
): Promise<SearchResult[]> {
  const resolve = (value: string) =>
    substituteEnv(value, new Proxy({}, { get: (_t, name) => env(String(name)) }), (name) => {
      throw new ToolError(`websearch: the variable ${name} of its config is not set`);
    });
  const apiKey = config.apiKey === undefined ? undefined : resolve(config.apiKey);
  try {
    if (config.provider === 'outpost') {
      const headers = Object.fromEntries(
        Object.entries(config.headers ?? {}).map(([name, value]) => [name, resolve(value)]),
      );
      return await gatewaySearch(http, config.baseURL!, apiKey, headers, query, max, ctx.signal);
    }
    return await searchWeb(
      http,
      { kind: config.provider, baseUrl: config.baseURL, apiKey },
      query,
      max,
      ctx.signal,
    );
  } catch (error) {
    if (ctx.signal.aborted) throw new ToolAbortedError();
    if (error instanceof WebSearchError) throw new ToolError(`websearch: ${error.message}`);
    throw error;
  }
}

/** `POST <baseURL>/v1/search` of an Outpost gateway; its refusals (402 over budget, 403) are the model's error. */
async function gatewaySearch(
  http: OutboundHttp,
  baseURL: string,
  apiKey: string | undefined,
  headers: Record<string, string>,
  query: string,
  max: number,
  signal: AbortSignal,
): Promise<SearchResult[]> {
  let res: Awaited<ReturnType<OutboundHttp['fetch']>>;
  try {
    res = await http.fetch(`${baseURL.replace(/\/+$/, '')}/v1/search`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...headers,
        ...(apiKey ? { authorization: `Bearer ${apiKey}` } : {}),
      },
      body: JSON.stringify({ query, max_results: max }),
      signal,
    });
  } catch (error) {
    const refused = refusedAddress(error);
    if (refused)
      throw new WebSearchError(
        `${refused.message}; the server's operator can allow it with ${ALLOW_VARIABLE}`,
      );
    throw new WebSearchError(`the gateway could not be reached (${(error as Error).message})`);
  }
  const answer = (await res.json().catch(() => undefined)) as
    { results?: SearchResult[]; error?: { message?: string } } | undefined;
  if (!res.ok)
    throw new WebSearchError(
      `the gateway answered ${res.status}: ${answer?.error?.message ?? 'no reason given'}`,
    );
  if (!Array.isArray(answer?.results)) throw new WebSearchError('the gateway answered without results');
  return answer.results;
}

/** The results as the model reads them, with where to go next. */
function numbered(query: string, results: SearchResult[]): string {
  if (results.length === 0) return numberedResults(query, results);
  return `${numberedResults(query, results)}\n\nRead a result with webfetch and its URL.`;
}
