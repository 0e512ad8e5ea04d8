import proxyAddr from '@fastify/proxy-addr';
import type { FastifyHttpOptions, FastifyInstance, FastifyServerFactoryHandler } from 'fastify';
import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import { writeError } from '../errors/error.filter';
import { logRequest, requestId, requestLineLogger } from '../../logger';
import { PlainRequest } from './http';
import { carryStandardHeaders } from './response-head';

/** A route a lane answers: its pattern (for logs and metrics) and its handler, which answers every failure itself. */
export interface LaneRoute {
  route: string;
  handle(request: PlainRequest, response: ServerResponse): Promise<void>;
}

/** Picks the requests a lane answers; undefined leaves the request to Fastify. */
export type Lane = (raw: IncomingMessage) => LaneRoute | undefined;

const lanesOfServer = new WeakMap<object, HttpLanes>();

/**
 * Requests answered on node's HTTP server before Fastify routes them: the gateway's model calls, whose budget per
 * request is smaller than the framework's cost (bench/gateway). Every other request goes to Fastify. The server is
 * the one Fastify would make, with the same options (`serverFactory`), and a lane's requests get what Fastify's
 * hooks give the others: a request id, the security headers (written with the head, response-head.ts), the client's address, one log line and the metrics.
 */
export class HttpLanes {
  private readonly lanes: Lane[] = [];
  private logger: Logger | undefined;
  private trusted: ((address: string, hop: number) => boolean) | undefined;
  /** Set when Fastify starts closing: from then on Fastify answers every request (with `Connection: close`). */
  private closing = false;

  /** The lanes of the app made with `createHttpAdapter`; none for another app. */
  static of(fastify: FastifyInstance): HttpLanes | undefined {
    return lanesOfServer.get(fastify.server);
  }

  /**
   * The log and the proxies believed for the client's address (`OUTPOST_TRUST_PROXY`), as Fastify has them; and
   * Fastify's close, after which Fastify answers every request with `Connection: close`, so a busy client cannot
   * keep a stopping server's connection (and its drain) open.
   */
  configure(fastify: FastifyInstance, logger: Logger, trustProxy: string[] | false): void {
    this.logger = requestLineLogger(logger);
    this.trusted = trustProxy ? proxyAddr.compile(trustProxy) : undefined;
    fastify.addHook('preClose', (done) => {
      this.closing = true;
      done();
    });
  }

  add(lane: Lane): void {
    this.lanes.push(lane);
  }

  readonly serverFactory = (
    handler: FastifyServerFactoryHandler,
    options: FastifyHttpOptions<Server>,
  ): Server => {
    const server = createServer(options.http ?? {}, (raw, response) => {
      if (this.closing) return handler(raw, response);
      for (const lane of this.lanes) {
        const route = lane(raw);
        if (route) return this.serve(route, raw, response);
      }
      handler(raw, response);
    });
    // What Fastify sets on the server it makes itself.
    server.keepAliveTimeout = options.keepAliveTimeout!;
    server.requestTimeout = options.requestTimeout!;
    server.setTimeout(options.connectionTimeout!);
    if (options.maxRequestsPerSocket) server.maxRequestsPerSocket = options.maxRequestsPerSocket;
    lanesOfServer.set(server, this);
    return server;
  };

  private serve(route: LaneRoute, raw: IncomingMessage, response: ServerResponse): void {
    const started = performance.now();
    const request: PlainRequest = {
      id: requestId(raw),
      method: raw.method!,
      url: raw.url!,
      headers: raw.headers,
      ip: this.trusted ? proxyAddr(raw, this.trusted) : (raw.socket.remoteAddress ?? ''),
      params: {},
      routeOptions: { url: route.route },
    };
    carryStandardHeaders(response, request.id);
    response.once('close', () => {
      if (!this.logger) return;
      const status = response.headersSent ? response.statusCode : 499;
      const { id, method, url, ip } = request;
      logRequest(this.logger, {
        id,
        method,
        url,
        ip,
        route: route.route,
        status,
        ms: performance.now() - started,
      });
    });
    route.handle(request, response).catch((error: unknown) => writeError(error, request, response));
  }
}
