import type { FastifyReply, FastifyRequest } from 'fastify';
import type { IncomingHttpHeaders } from 'node:http';

/** The HTTP layer is Fastify; these names keep its types in one place. */
export type HttpRequest = FastifyRequest;
export type HttpReply = FastifyReply;

/**
 * What code that serves both Fastify's routes and the requests answered before Fastify (http-lanes.ts) reads of a
 * request; a Fastify request is one.
 */
export interface PlainRequest {
  id: string;
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  ip: string;
  params?: unknown;
  /**
   * What Fastify's request says of its route, when routed: its pattern (`/inference/custom/:connection/messages`,
   * also set by the lanes, http-lanes.ts) and body limit.
   */
  routeOptions?: { url?: string; bodyLimit?: number };
}

/**
 * The longest path parameter, as sent (%-encoded), a route matches (Fastify's `maxParamLength`); a longer one
 * matches no route: 404.
 */
export const MAX_PARAM_LENGTH = 1_000;

/** The request's path without its query string (not decoded). */
export function requestPath(request: { url: string }): string {
  const query = request.url.indexOf('?');
  return query < 0 ? request.url : request.url.slice(0, query);
}

/** Whether the client reached us over https (X-Forwarded-Proto counts only behind a trusted proxy). */
export function isSecure(request: HttpRequest): boolean {
  return request.protocol === 'https';
}

/** The origin this request reached, as the client sees it. */
export function requestOrigin(request: HttpRequest): string {
  return `${request.protocol}://${request.host}`;
}
