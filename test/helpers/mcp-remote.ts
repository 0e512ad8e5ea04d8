import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';
import { mcpTestServer } from './mcp-server';

/** One Streamable HTTP request answered by a fresh test MCP server (stateless: a server per request). */
export async function serveMcp(req: IncomingMessage, res: ServerResponse, body?: unknown): Promise<void> {
  const server = mcpTestServer();
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
  res.on('close', () => {
    void transport.close();
    void server.close();
  });
  await server.connect(transport);
  await transport.handleRequest(req, res, body);
}

export interface RemoteMcp {
  url: string;
  /** The requests that reached it, with or without the right header. */
  requests: number;
  close(): Promise<void>;
}

/**
 * The test MCP server (`mcp-server.js`) over Streamable HTTP on loopback, in this process, stateless (a server per
 * request). A request without `header` (name, value) is refused with 403, so a test sees headers arrive.
 */
export async function startRemoteMcp(header: [string, string]): Promise<RemoteMcp> {
  const remote: RemoteMcp = { url: '', requests: 0, close: async () => undefined };
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    remote.requests++;
    if (req.headers[header[0].toLowerCase()] !== header[1]) {
      res.writeHead(403, { 'content-type': 'text/plain' }).end('wrong or missing header');
      return;
    }
    if (req.method !== 'POST') {
      res.writeHead(405).end();
      return;
    }
    await serveMcp(req, res);
  };
  const http: Server = createServer((req, res) => {
    handle(req, res).catch(() => res.writeHead(500).end());
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  remote.url = `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`;
  remote.close = () =>
    new Promise<void>((resolve) => {
      http.closeAllConnections();
      http.close(() => resolve());
    });
  return remote;
}

/**
 * The test MCP server over the older HTTP+SSE transport only (GET /sse opens the stream, POST /messages carries the
 * client's messages), as servers written before Streamable HTTP speak it: a POST to /sse is 405.
 */
export async function startSseMcp(): Promise<RemoteMcp> {
  const { SSEServerTransport } = await import('@modelcontextprotocol/sdk/server/sse.js');
  const sessions = new Map<string, InstanceType<typeof SSEServerTransport>>();
  const remote: RemoteMcp = { url: '', requests: 0, close: async () => undefined };
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    remote.requests++;
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (req.method === 'GET' && url.pathname === '/sse') {
      const transport = new SSEServerTransport('/messages', res);
      sessions.set(transport.sessionId, transport);
      res.on('close', () => sessions.delete(transport.sessionId));
      await mcpTestServer().connect(transport);
      return;
    }
    const transport = sessions.get(url.searchParams.get('sessionId') ?? '');
    if (req.method === 'POST' && url.pathname === '/messages' && transport) {
      await transport.handlePostMessage(req, res);
      return;
    }
    res.writeHead(405, { 'content-type': 'text/plain' }).end('only SSE here');
  };
  const http: Server = createServer((req, res) => {
    handle(req, res).catch(() => res.writeHead(500).end());
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  remote.url = `http://127.0.0.1:${(http.address() as AddressInfo).port}/sse`;
  remote.close = () =>
    new Promise<void>((resolve) => {
      http.closeAllConnections();
      http.close(() => resolve());
    });
  return remote;
}
