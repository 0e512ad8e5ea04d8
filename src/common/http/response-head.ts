import type { ServerResponse } from 'node:http';
import { securityHeaders } from './security-headers';

const SECURITY_HEADERS = securityHeaders().flat();
const REQUEST_ID = Symbol('request id');

type MarkedResponse = ServerResponse & { [REQUEST_ID]?: string };

/** Marks a response answered outside Fastify (http-lanes.ts): `writeHead` adds the security headers and `id`. */
export function carryStandardHeaders(response: ServerResponse, id: string): void {
  (response as MarkedResponse)[REQUEST_ID] = id;
}

/**
 * Writes a response's head. One answered outside Fastify gets the security headers and its `x-request-id` with
 * it, all in one flat list: node checks and copies such a list straight into the head, where setting the same
 * headers one by one costs about 18 µs more per response (bench/gateway). Fastify's responses have theirs set
 * already (app.setup.ts).
 */
export function writeHead(
  response: ServerResponse,
  status: number,
  headers: Record<string, string>,
): ServerResponse {
  const id = (response as MarkedResponse)[REQUEST_ID];
  if (id === undefined) return response.writeHead(status, headers);
  const flat = SECURITY_HEADERS.slice();
  flat.push('x-request-id', id);
  for (const name in headers) flat.push(name, headers[name]);
  return response.writeHead(status, flat);
}

/** A whole answer with its length (node would send it chunked, its head being written first). */
export function writeWhole(
  response: ServerResponse,
  status: number,
  headers: Record<string, string>,
  body: string,
): void {
  headers['content-length'] = String(Buffer.byteLength(body));
  writeHead(response, status, headers).end(body);
}
