import type { Dispatcher } from 'undici';
import { refusedAddress } from '@/common/net/outbound-http';
import { ALLOW_VARIABLE } from '@/common/net/outbound.config';
import { pageText } from './page-text';
import { ToolAbortedError, ToolError } from './tool.errors';
import { Tool, ToolContext } from './tool.types';

const MAX_BYTES = 5 * 1024 * 1024;
const MAX_REDIRECTS = 5;
const DEFAULT_TIMEOUT_MS = 30_000;
const MAX_TIMEOUT_MS = 120_000;
/** What the model gets of a page at most. */
const MAX_OUTPUT_CHARS = 100_000;

export interface WebFetchInput {
  url: string;
  format?: 'text' | 'markdown' | 'html';
  timeout?: number;
}

/**
 * `webfetch`: an http(s) page as text, Markdown or HTML. The model chooses the URL, so it goes through the
 * server's one outbound guard (`OutboundHttp`): every address a host resolves to is checked, and the checked one
 * dialled, on the first request and on each redirect (followed by hand, at most 5); the operator's
 * `OUTPOST_CONNECTIONS_ALLOW` opens what it names. The body is capped.
 */
export const webFetchTool: Tool<WebFetchInput> = {
  name: 'webfetch',
  action: 'webfetch',
  description:
    'Fetch a web page (http or https) and return its content as text (default), markdown or html. ' +
    'Public addresses only. `timeout` in milliseconds.',
  inputSchema: {
    type: 'object',
    properties: {
      url: { type: 'string' },
      format: { type: 'string', enum: ['text', 'markdown', 'html'] },
      timeout: { type: 'integer', minimum: 1 },
    },
    required: ['url'],
    additionalProperties: false,
  },
  permissions: (input) => [{ action: 'webfetch', resource: input.url }],
  async run(input, ctx) {
    const timeout = Math.min(input.timeout ?? DEFAULT_TIMEOUT_MS, MAX_TIMEOUT_MS);
    const signal = AbortSignal.any([ctx.signal, AbortSignal.timeout(timeout)]);
    let url = parseUrl(input.url);
    for (let hop = 0; ; hop++) {
      const response = await get(ctx, url, signal);
      const location = response.headers.location;
      if (response.statusCode >= 300 && response.statusCode < 400 && typeof location === 'string') {
        await discard(response);
        if (hop >= MAX_REDIRECTS) throw new ToolError(`webfetch: more than ${MAX_REDIRECTS} redirects`);
        url = parseUrl(new URL(location, url).href);
        continue;
      }
      const type = String(response.headers['content-type'] ?? '');
      if (response.statusCode >= 400) {
        await discard(response);
        throw new ToolError(`webfetch: ${url.href} answered ${response.statusCode}`);
      }
      const body = await readBody(response, signal);
      const text = /html/i.test(type) ? pageText(body, input.format ?? 'text') : body;
      return {
        output: text.length > MAX_OUTPUT_CHARS ? `${text.slice(0, MAX_OUTPUT_CHARS)}\n…(cut)` : text,
        title: `${url.href} (${type || 'unknown type'})`,
        metadata: { url: url.href, status: response.statusCode, contentType: type },
      };
    }
  },
};

function parseUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ToolError(`webfetch: not a URL: ${raw}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ToolError('webfetch: only http and https URLs can be fetched');
  }
  return url;
}

/** One GET through the outbound guard, no redirect followed; a refused address is the model's error. */
async function get(ctx: ToolContext, url: URL, signal: AbortSignal): Promise<Dispatcher.ResponseData> {
  if (!ctx.outbound) throw new ToolError('webfetch: this server makes no outbound calls here');
  if (ctx.signal.aborted) throw new ToolAbortedError();
  try {
    return await ctx.outbound.request(url, {
      method: 'GET',
      headers: { 'user-agent': 'outpost-webfetch', accept: 'text/html,text/plain,*/*;q=0.8' },
      signal,
    });
  } catch (error) {
    const refused = refusedAddress(error);
    if (refused)
      throw new ToolError(
        `webfetch: ${refused.message}; the server's operator can allow it with ${ALLOW_VARIABLE}`,
      );
    if (ctx.signal.aborted) throw new ToolAbortedError();
    if (signal.aborted) throw new ToolError('webfetch: timed out');
    throw new ToolError(`webfetch: ${(error as Error).message}`);
  }
}

/** Drops a body not read (a redirect's, an error page's); undici closes the connection if it is long. */
async function discard(response: Dispatcher.ResponseData): Promise<void> {
  await response.body.dump().catch(() => undefined);
}

/** The body as UTF-8; more than MAX_BYTES stops the read (leaving the loop closes the stream). */
async function readBody(response: Dispatcher.ResponseData, signal: AbortSignal): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of response.body as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > MAX_BYTES) {
        throw new ToolError(`webfetch: the page is larger than ${MAX_BYTES} bytes`);
      }
      chunks.push(chunk);
    }
  } catch (error) {
    if (error instanceof ToolError) throw error;
    throw new ToolError(signal.aborted ? 'webfetch: timed out' : 'webfetch: read failed');
  }
  return Buffer.concat(chunks).toString('utf8');
}
