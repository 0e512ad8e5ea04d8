import { OutboundHttp, refusedAddress } from '../net/outbound-http';
import { ALLOW_VARIABLE } from '../net/outbound.config';
import { brave } from './brave';
import { exa } from './exa';
import { searxng } from './searxng';
import { tavily } from './tavily';
import { SearchKind, SearchProtocol, SearchResult, SearchTarget } from './web-search.types';

export const SEARCH_PROTOCOLS: Record<SearchKind, SearchProtocol> = { brave, tavily, exa, searxng };

/** Most results one search asks for; the APIs cap theirs near this. */
export const MAX_SEARCH_RESULTS = 20;
/** A search answer is a page of results: anything larger is not one. */
const MAX_ANSWER_BYTES = 2 * 1024 * 1024;
const TIMEOUT_MS = 30_000;

/**
 * A search that did not give results: the address refused by the outbound guard, no answer, an error status
 * (`status`), or an answer that is not the API's JSON. The message names the provider, never its key.
 */
export class WebSearchError extends Error {
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
  }
}

/** The base URL a target is searched at, without a trailing slash; undefined when it has none (SearXNG unset). */
export function searchBaseUrl(target: SearchTarget): string | undefined {
  return (target.baseUrl ?? SEARCH_PROTOCOLS[target.kind].defaultBaseUrl)?.replace(/\/+$/, '');
}

/**
 * One search through the outbound guard (`OutboundHttp`: a base URL inside the network needs
 * `OUTPOST_CONNECTIONS_ALLOW`), in the provider's own request shape; its results as `{title, url, snippet}`, at most
 * `max`. Redirects are not followed.
 */
export async function searchWeb(
  http: OutboundHttp,
  target: SearchTarget,
  query: string,
  max: number,
  signal?: AbortSignal,
): Promise<SearchResult[]> {
  const protocol = SEARCH_PROTOCOLS[target.kind];
  const baseUrl = searchBaseUrl(target);
  if (!baseUrl) throw new WebSearchError(`${target.kind} needs a base URL`);
  if (protocol.needsKey && !target.apiKey) throw new WebSearchError(`${target.kind} needs an API key`);
  const asked = protocol.request(baseUrl, target.apiKey, query, max);
  const timeout = AbortSignal.timeout(TIMEOUT_MS);
  let answer: Awaited<ReturnType<OutboundHttp['request']>>;
  try {
    answer = await http.request(asked.url, {
      method: asked.method,
      headers: { 'user-agent': 'outpost-websearch', ...asked.headers },
      body: asked.body,
      signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
    });
  } catch (error) {
    const refused = refusedAddress(error);
    if (refused)
      throw new WebSearchError(
        `${target.kind}: ${refused.message}; the server's operator can allow it with ${ALLOW_VARIABLE}`,
      );
    if (signal?.aborted) throw error;
    throw new WebSearchError(`${target.kind} could not be reached (${(error as Error).message})`);
  }
  const body = await readCapped(answer.body as AsyncIterable<Buffer>);
  if (answer.statusCode !== 200)
    throw new WebSearchError(`${target.kind} answered ${answer.statusCode}`, answer.statusCode);
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    throw new WebSearchError(`${target.kind} answered something other than JSON`);
  }
  return protocol.results(json).slice(0, max);
}

async function readCapped(body: AsyncIterable<Buffer>): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += chunk.length;
    if (size > MAX_ANSWER_BYTES)
      throw new WebSearchError(`the search answer is over ${MAX_ANSWER_BYTES} bytes`);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** Results as a model reads them: numbered, each with its title, URL and snippet (on one line). */
export function numberedResults(query: string, results: SearchResult[]): string {
  if (results.length === 0) return `No results for "${query}".`;
  return results
    .map(
      (result, i) =>
        `${i + 1}. ${result.title || result.url}\n   ${result.url}${result.snippet ? `\n   ${oneLine(result.snippet)}` : ''}`,
    )
    .join('\n\n');
}

const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim().slice(0, 500);
