import { INestApplication } from '@nestjs/common';
import fastifyCookie from '@fastify/cookie';
import fastifyHelmet from '@fastify/helmet';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyError } from 'fastify';
import { Logger } from 'nestjs-pino';
import { parse as parseQuery } from 'qs';
import { replyWithError } from './common/errors/error.filter';
import { registerBodyParsers } from './common/http/body-parsers';
import { HttpReply, HttpRequest } from './common/http/http';
import { jsonOnlyHook } from './common/http/json-only.hook';
import { AppConfig, appConfig } from './config/app.config';
import { parseAppEnv } from './config/env';
import { requestId } from './logger';
import { setupDocs } from './modules/docs/docs';

/** The HTTP server (Fastify) with the options that must be known before the app is created. */
export function createHttpAdapter(env: NodeJS.ProcessEnv = process.env): FastifyAdapter {
  const config = parseAppEnv(env);
  return new FastifyAdapter({
    bodyLimit: config.bodyLimitBytes,
    trustProxy: config.trustProxy,
    genReqId: requestId,
    routerOptions: {
      // Nested query objects, for the deepObject `location[directory]=…` parameters of the instance API.
      querystringParser: (query) => parseQuery(query),
      ignoreTrailingSlash: true,
      maxParamLength: 1_000,
    },
    // A bad %-encoding in the path: answered by the error filter like every other failure.
    frameworkErrors: (error: FastifyError, request: HttpRequest, reply: HttpReply) =>
      replyWithError(error, request, reply),
  });
}

/** What main and the tests both do to a created app, so tests exercise the real HTTP stack. */
export async function configureApp(app: INestApplication): Promise<void> {
  const fastify = app as NestFastifyApplication;
  const config = app.get<AppConfig>(appConfig.KEY);
  fastify.useLogger(app.get(Logger));
  // Failures before a route handler runs (body parsing, hooks) reach the global filter through Nest's
  // Fastify error handler; only a malformed URL is answered before that (`frameworkErrors` above).
  const server = fastify.getHttpAdapter().getInstance();
  server.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    done();
  });
  server.addHook('onRequest', jsonOnlyHook);
  registerBodyParsers(server, config.bodyLimitBytes);
  await fastify.register(fastifyCookie);
  await fastify.register(fastifyHelmet, {
    contentSecurityPolicy: {
      directives: {
        'script-src': ["'self'"],
        'img-src': ["'self'", 'data:'],
        'upgrade-insecure-requests': null,
      },
    },
    hsts: false,
  });
  await setupDocs(app);
}
