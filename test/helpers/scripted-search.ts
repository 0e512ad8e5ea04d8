/**
 * The four web search APIs on loopback, each under its own path prefix (`/brave`, `/tavily`, `/exa`, `/searxng`):
 * a request in the shape the provider documents is answered in the provider's documented shape with the scripted
 * results; any other request is a 400 saying what was wrong (a missing or wrong key a 401), so a test fails on it. Every request is recorded.
 */
import { createServer, IncomingMessage, Server } from 'node:http';
import { AddressInfo } from 'node:net';

export const SEARCH_KEYS = {
  brave: 'brave-key-0123456789',
  tavily: 'tvly-key-0123456789',
  exa: 'exa-key-0123456789',
};

export interface RecordedSearch {
  provider: string;
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingMessage['headers'];
  body: unknown;
}

export interface ScriptedResult {
  title: string;
  url: string;
  snippet: string;
}

type Check = (request: RecordedSearch) => string | undefined;

/** What each provider requires, as its API documents it. */
const CHECKS: Record<string, Check> = {
  brave: (r) =>
    r.method !== 'GET' || r.path !== '/res/v1/web/search'
      ? 'brave: GET /res/v1/web/search'
      : !r.query.get('q') || !/^\d+$/.test(r.query.get('count') ?? '')
        ? 'brave: q and count'
        : undefined,
  tavily: (r) => {
    const body = r.body as { query?: unknown; max_results?: unknown } | undefined;
    if (r.method !== 'POST' || r.path !== '/search') return 'tavily: POST /search';
    return typeof body?.query === 'string' && typeof body.max_results === 'number'
      ? undefined
      : 'tavily: {query, max_results}';
  },
  exa: (r) => {
    const body = r.body as { query?: unknown; numResults?: unknown; contents?: { text?: unknown } };
    if (r.method !== 'POST' || r.path !== '/search') return 'exa: POST /search';
    return typeof body?.query === 'string' && typeof body.numResults === 'number' && body.contents?.text
      ? undefined
      : 'exa: {query, numResults, contents: {text}}';
  },
  searxng: (r) =>
    r.method !== 'GET' || r.path !== '/search'
      ? 'searxng: GET /search'
      : !r.query.get('q') || r.query.get('format') !== 'json'
        ? 'searxng: q and format=json'
        : undefined,
};

/** Whether the request carries the provider's key where its API documents it (401 otherwise). */
const KEYED: Record<string, (r: RecordedSearch) => boolean> = {
  brave: (r) => r.headers['x-subscription-token'] === SEARCH_KEYS.brave,
  tavily: (r) => r.headers.authorization === `Bearer ${SEARCH_KEYS.tavily}`,
  exa: (r) => r.headers['x-api-key'] === SEARCH_KEYS.exa,
  searxng: () => true,
};

/** Each provider's documented answer shape. */
const ANSWERS: Record<string, (results: ScriptedResult[]) => unknown> = {
  brave: (results) => ({
    type: 'search',
    web: {
      type: 'search',
      results: results.map((r) => ({ title: r.title, url: r.url, description: r.snippet })),
    },
  }),
  tavily: (results) => ({
    query: 'q',
    results: results.map((r) => ({ title: r.title, url: r.url, content: r.snippet, score: 0.9 })),
  }),
  exa: (results) => ({
    requestId: 'exa-req',
    results: results.map((r) => ({ id: r.url, title: r.title, url: r.url, text: r.snippet })),
  }),
  searxng: (results) => ({
    query: 'q',
    number_of_results: results.length,
    results: results.map((r) => ({ title: r.title, url: r.url, content: r.snippet, engine: 'duckduckgo' })),
  }),
};

export class ScriptedSearch {
  readonly requests: RecordedSearch[] = [];
  /** What every provider answers. */
  results: ScriptedResult[] = [
    { title: 'First result', url: 'https://example.com/first', snippet: 'The first snippet.' },
    { title: 'Second result', url: 'https://example.com/second', snippet: 'The second snippet.' },
  ];

  private constructor(private readonly server: Server) {}

  static async start(): Promise<ScriptedSearch> {
    const server = createServer();
    const search = new ScriptedSearch(server);
    server.on('request', (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const url = new URL(req.url ?? '/', 'http://localhost');
        const [, provider, ...rest] = url.pathname.split('/');
        const text = Buffer.concat(chunks).toString('utf8');
        const recorded: RecordedSearch = {
          provider,
          method: req.method ?? '',
          path: `/${rest.join('/')}`,
          query: url.searchParams,
          headers: req.headers,
          body: text ? (JSON.parse(text) as unknown) : undefined,
        };
        search.requests.push(recorded);
        const wrong = CHECKS[provider]?.(recorded) ?? (CHECKS[provider] ? undefined : 'no such provider');
        res.setHeader('content-type', 'application/json');
        if (!wrong && !KEYED[provider](recorded)) {
          res.statusCode = 401;
          res.end(JSON.stringify({ error: `invalid key for ${provider}` }));
          return;
        }
        if (wrong) {
          res.statusCode = 400;
          res.end(JSON.stringify({ error: `expected ${wrong}` }));
          return;
        }
        res.end(JSON.stringify(ANSWERS[provider](search.results)));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return search;
  }

  /** The base URL a provider of `kind` is given: its API's root on this server. */
  baseUrl(kind: string): string {
    const { port } = this.server.address() as AddressInfo;
    return `http://127.0.0.1:${port}/${kind}${kind === 'brave' ? '/res/v1' : ''}`;
  }

  close(): Promise<void> {
    const closed = new Promise<void>((resolve) => this.server.close(() => resolve()));
    this.server.closeAllConnections();
    return closed;
  }
}
