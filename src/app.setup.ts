import { INestApplication } from '@nestjs/common';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyError } from 'fastify';
import type { Logger } from 'pino';
import type { IncomingMessage } from 'node:http';
import { parse as parseQuery } from 'qs';
import { ErrorFormats } from './common/errors/error-formats';
import { replyWithError } from './common/errors/error.filter';
import { AuthRegistry } from './common/auth';
import { registerBodyParsers } from './common/http/body-parsers';
import { clientErrorHandler } from './common/http/client-errors';
import { HttpLanes } from './common/http/http-lanes';
import { assertStorable } from './common/http/storable-input';
import { HttpReply, HttpRequest, MAX_PARAM_LENGTH, requestPath } from './common/http/http';
import { jsonOnly } from './common/http/json-only';
import { serializeReply } from './common/http/rendered-json';
import { securityHeaders } from './common/http/security-headers';
import { AppConfig, appConfig } from './config/app.config';
import { parseAppEnv } from './config/env';
import { createLogger, NestPinoLogger, requestId, requestLogHook } from './logger';
import { setupDocs } from './modules/docs/docs';
import { withoutConnectionV1 } from './modules/inference/connection-path';

/** Each Fastify instance's error shapes by path (set by `configureApp`), for the failures Fastify answers itself. */
const errorFormatsOf = new WeakMap<object, ErrorFormats>();

/** The HTTP server (Fastify) with the options that must be known before the app is created. */
export function createHttpAdapter(env: NodeJS.ProcessEnv = process.env): FastifyAdapter {
  const config = parseAppEnv(env);
  const headersTimeout = Math.min(config.headersTimeoutMs, config.requestTimeoutMs);
  return new FastifyAdapter({
    // node's server, with the lanes that answer the gateway's model calls before Fastify (http-lanes.ts).
    serverFactory: new HttpLanes().serverFactory,
    bodyLimit: config.bodyLimitBytes,
    // Slow senders (slowloris) are cut: headers, then the whole request, checked every half second.
    requestTimeout: config.requestTimeoutMs,
    http: { headersTimeout, requestTimeout: config.requestTimeoutMs, connectionsCheckingInterval: 500 },
    clientErrorHandler,
    // A stopping server serves what still reaches it (with `Connection: close`, see main.ts) rather than answering
    // 503: a balancer does not replay a POST that a node took, so a 503 would be the caller's failure.
    return503OnClosing: false,
    // Outpost has no Nest middleware: its request work is in Fastify hooks below.
    skipMiddie: true,
    trustProxy: config.trustProxy,
    genReqId: requestId,
    // A connection's routes under the SDKs' `/v1` paths (connection-path.ts).
    rewriteUrl: (request: IncomingMessage) => withoutConnectionV1(request.url!),
    routerOptions: {
      // Nested query objects, for the deepObject `location[directory]=…` parameters of the instance API.
      querystringParser: (query) => parseQuery(query),
      ignoreTrailingSlash: true,
      maxParamLength: MAX_PARAM_LENGTH,
    },
    // A bad %-encoding in the path is answered here, before routing, in the path's error shape (the gateway's
    // SDKs' under /inference); every other failure reaches the global filter through Nest's error handler.
    frameworkErrors: (error: FastifyError, request: HttpRequest, reply: HttpReply) =>
      replyWithError(error, request, reply, errorFormatsOf.get(request.server)?.find(requestPath(request))),
  });
}

/**
 * opencode's clients name the project directory in `x-opencode-directory` (URL-encoded); under /api it counts as
 * the query's `directory` when the query names none.
 */
function directoryHeader(request: HttpRequest): void {
  const header = request.headers['x-opencode-directory'];
  if (typeof header !== 'string' || !request.url.startsWith('/api/')) return;
  const query = request.query as Record<string, unknown>;
  const location = query.location as Record<string, unknown> | undefined;
  if (query.directory !== undefined || location?.directory !== undefined) return;
  try {
    query.directory = decodeURIComponent(header);
  } catch {
    query.directory = header;
  }
}

/** What main and the tests both do to a created app, so tests exercise the real HTTP stack. */
export async function configureApp(app: INestApplication, logger?: Logger): Promise<void> {
  const fastify = app as NestFastifyApplication;
  const config = app.get<AppConfig>(appConfig.KEY);
  const log = logger ?? createLogger(config.logLevel, config.logFormat);
  fastify.useLogger(new NestPinoLogger(log));
  const server = fastify.getHttpAdapter().getInstance();
  const headers = securityHeaders();
  // On the raw response, so streams that take the socket over (SSE, large exports) carry them too.
  server.addHook('onRequest', (request, reply, done) => {
    for (const [name, value] of headers) reply.raw.setHeader(name, value);
    reply.raw.setHeader('x-request-id', request.id);
    jsonOnly(request, done);
  });
  server.addHook('onResponse', requestLogHook(log));
  HttpLanes.of(server)?.configure(server, log, config.trustProxy);
  errorFormatsOf.set(server, app.get(ErrorFormats));
  server.setReplySerializer(serializeReply);
  registerBodyParsers(server, app.get(AuthRegistry), {
    default: config.bodyLimitBytes,
    streamed: config.importBodyLimitBytes,
  });
  // Query strings and path parameters meet the same rule as bodies, before a body parser checks the credentials of a
  // large body (which read the parameters: a workspace's `:org`).
  server.addHook('preParsing', async (request) => {
    directoryHeader(request);
    assertStorable(request.query, 'Query');
    assertStorable(request.params, 'Params');
  });
  await setupDocs(app);
}
