import { lookup } from 'node:dns';
import { request as httpRequest, IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { BlockList, isIP } from 'node:net';
import { ToolAbortedError, ToolError } from './tool.errors';
import { Tool } from './tool.types';

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
 * Addresses a fetch must never reach: loopback, private networks, link-local (cloud metadata), carrier-grade
 * NAT, unique-local IPv6, unspecified and multicast. The model chooses the URL, so it could otherwise read the
 * server's own endpoints or its network's.
 */
const BLOCKED = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  BLOCKED.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const)
  BLOCKED.addSubnet(net, prefix, 'ipv6');

/** Whether an address is one the tool refuses (IPv4-mapped IPv6 is checked as IPv4). */
export function isBlockedAddress(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return BLOCKED.check(mapped[1], 'ipv4');
  const family = isIP(address);
  if (family === 0) return true;
  return BLOCKED.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

/**
 * `webfetch`: an http(s) page as text, markdown-ish text or HTML. Every address the host resolves to is checked
 * when the connection is made (so a name that resolves to a private address, or a redirect to one, is refused),
 * redirects are followed by hand (at most 5), and the body is capped.
 */
export const webFetchTool: Tool<WebFetchInput> = {
  name: 'webfetch',
  action: 'webfetch',
  description:
    'Fetch a web page (http or https) and return its content as text (default), markdown-like text or html. ' +
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
      const response = await get(url, signal);
      const location = response.headers.location;
      if (response.statusCode && response.statusCode >= 300 && response.statusCode < 400 && location) {
        response.destroy();
        if (hop >= MAX_REDIRECTS) throw new ToolError(`webfetch: more than ${MAX_REDIRECTS} redirects`);
        url = parseUrl(new URL(location, url).href);
        continue;
      }
      const body = await readBody(response, signal);
      const type = String(response.headers['content-type'] ?? '');
      if (!response.statusCode || response.statusCode >= 400) {
        throw new ToolError(`webfetch: ${url.href} answered ${response.statusCode}`);
      }
      const text = format(body, type, input.format ?? 'text');
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

/** A GET whose connection only goes to public addresses (checked in the lookup the socket itself uses). */
function get(url: URL, signal: AbortSignal): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(new ToolAbortedError());
    const host = url.hostname.replace(/^\[|\]$/g, '');
    if (isIP(host) && isBlockedAddress(host)) {
      return reject(
        new ToolError(`webfetch refuses ${host}: loopback and private addresses are not fetched`),
      );
    }
    const request = (url.protocol === 'https:' ? httpsRequest : httpRequest)(
      url,
      {
        method: 'GET',
        headers: { 'user-agent': 'outpost-webfetch', accept: 'text/html,text/plain,*/*;q=0.8' },
        signal,
        lookup: (hostname, options, callback) =>
          lookup(hostname, { ...options, all: true }, (error, addresses) => {
            if (error) return callback(error, '', 4);
            const list = addresses as Array<{ address: string; family: number }>;
            const blocked = list.find((entry) => isBlockedAddress(entry.address));
            if (blocked || list.length === 0) {
              const refused = new ToolError(
                `webfetch refuses ${hostname}: it resolves to ${blocked?.address ?? 'nothing'}, ` +
                  'and loopback and private addresses are not fetched',
              );
              return callback(refused, '', 4);
            }
            if ((options as { all?: boolean }).all)
              return (callback as (e: null, a: typeof list) => void)(null, list);
            callback(null, list[0].address, list[0].family);
          }),
      },
      resolve,
    );
    request.on('error', (error) => {
      if (error instanceof ToolError) reject(error);
      else if (signal.aborted) reject(new ToolError('webfetch: timed out or interrupted'));
      else reject(new ToolError(`webfetch: ${error.message}`));
    });
    request.end();
  });
}

function readBody(response: IncomingMessage, signal: AbortSignal): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    response.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BYTES) {
        response.destroy();
        reject(new ToolError(`webfetch: the page is larger than ${MAX_BYTES} bytes`));
        return;
      }
      chunks.push(chunk);
    });
    response.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    response.on('error', () =>
      reject(new ToolError(signal.aborted ? 'webfetch: timed out' : 'webfetch: read failed')),
    );
  });
}

/** HTML as text: scripts and styles dropped, block ends as new lines, tags removed, entities decoded. */
function format(body: string, type: string, wanted: WebFetchInput['format']): string {
  if (wanted === 'html' || !/html/i.test(type)) return body;
  const text = body
    .replace(/<(script|style|noscript)[\s\S]*?<\/\1>/gi, '')
    .replace(/<br\s*\/?>|<\/(p|div|li|h[1-6]|tr|section|article)>/gi, '\n')
    .replace(/<h([1-6])[^>]*>/gi, (_m, level: string) =>
      wanted === 'markdown' ? `${'#'.repeat(Number(level))} ` : '',
    )
    .replace(/<li[^>]*>/gi, wanted === 'markdown' ? '- ' : '')
    .replace(/<[^>]+>/g, '')
    .replace(/&nbsp;/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&');
  return text
    .replace(/[ \t]+\n/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
