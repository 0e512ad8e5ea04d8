/*
 * The console MCP server's tools as MCP lists them, and their arguments checked: what a client sends is untrusted,
 * and a bad argument is an MCP error naming it (InvalidParams), never a failure of the server.
 */
import { ErrorCode, McpError, Tool } from '@modelcontextprotocol/sdk/types.js';
import { MAX_SEARCH_RESULTS } from '@/common/web-search/web-search';

/** Results a search asks for when the caller names no number (as `POST /inference/v1/search`). */
export const DEFAULT_RESULTS = 5;
const MAX_QUERY = 2000;

export const WEBSEARCH_TOOL: Tool = {
  name: 'websearch',
  title: 'Web search',
  description:
    "Search the web through the workspace's search provider. Each search is billed to you at the provider's price " +
    'and counts against your monthly budget.',
  inputSchema: {
    type: 'object',
    properties: {
      query: {
        type: 'string',
        minLength: 1,
        maxLength: MAX_QUERY,
        description: 'What to search the web for',
      },
      max_results: {
        type: 'integer',
        minimum: 1,
        maximum: MAX_SEARCH_RESULTS,
        description: `How many results at most (${DEFAULT_RESULTS} when absent)`,
      },
    },
    required: ['query'],
    additionalProperties: false,
  },
  annotations: { readOnlyHint: true, openWorldHint: true },
};

export const USAGE_TOOL: Tool = {
  name: 'workspace_usage',
  title: 'Your spend this month',
  description:
    'Your spend in this workspace this UTC month, your budget (and your key’s, and the workspace’s), and what is left.',
  inputSchema: { type: 'object', properties: {}, additionalProperties: false },
  annotations: { readOnlyHint: true, openWorldHint: false },
};

export const MODELS_TOOL: Tool = {
  name: 'workspace_models',
  title: 'Models you may use',
  description:
    'The models and routes of the workspace’s gateway you may call, with their prices in USD per million tokens.',
  inputSchema: { type: 'object', properties: {}, additionalProperties: false },
  annotations: { readOnlyHint: true, openWorldHint: false },
};

function invalid(message: string): never {
  throw new McpError(ErrorCode.InvalidParams, message);
}

function argumentsOf(raw: unknown, allowed: string[]): Record<string, unknown> {
  const args = raw ?? {};
  if (typeof args !== 'object' || Array.isArray(args)) invalid('arguments must be an object');
  const unknown = Object.keys(args).find((key) => !allowed.includes(key));
  if (unknown !== undefined) invalid(`${unknown}: is not an argument of this tool`);
  return args as Record<string, unknown>;
}

/** `websearch`'s arguments: `query` (1 to 2000 characters) and `max_results` (1 to 20, 5 when absent). */
export function searchArguments(raw: unknown): { query: string; max: number } {
  const args = argumentsOf(raw, ['query', 'max_results']);
  const query = args.query;
  if (typeof query !== 'string' || query.trim().length === 0 || query.length > MAX_QUERY)
    invalid(`query: must be a non-empty string of at most ${MAX_QUERY} characters`);
  const max = args.max_results ?? DEFAULT_RESULTS;
  if (typeof max !== 'number' || !Number.isInteger(max) || max < 1 || max > MAX_SEARCH_RESULTS)
    invalid(`max_results: must be an integer from 1 to ${MAX_SEARCH_RESULTS}`);
  return { query, max };
}

/** The tools without arguments take none. */
export function noArguments(raw: unknown): void {
  argumentsOf(raw, []);
}
