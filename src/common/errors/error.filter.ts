import {
  ArgumentsHost,
  Catch,
  ExceptionFilter,
  HttpException,
  Logger,
  NotFoundException,
} from '@nestjs/common';
import type { ServerResponse } from 'node:http';
import { AuthenticatedRequest, AuthRegistry } from '../auth';
import { HttpReply, HttpRequest, PlainRequest, requestPath } from '../http/http';
import { loggableError, redactUrl } from '../http/redact';
import { writeWhole } from '../http/response-head';
import {
  DeadlineExceededError,
  errorRef,
  ForbiddenError,
  InvalidRequestError,
  NotFoundError,
  PayloadTooLargeError,
  TooManyRequestsError,
  UnauthorizedError,
  UnknownError,
} from './http-errors';
import { ErrorBody, ErrorFormats } from './error-formats';
import { DatabaseUnavailableError, isDatabaseUnavailable } from './database-unavailable';
import { TaggedError } from './tagged-error';

const logger = new Logger('Errors');

/** Fastify's own failures (body parsing, a bad URL) carry a 4xx `statusCode`; Nest wraps them as HttpException. */
function clientStatus(error: unknown): number | undefined {
  if (error instanceof HttpException) return error.getStatus();
  const status = (error as { statusCode?: unknown } | null)?.statusCode;
  return typeof status === 'number' && status >= 400 && status < 500 ? status : undefined;
}

/** Any failure as one of our typed errors; an unexpected one is logged with the `ref` its `UnknownError` carries. */
export function toTagged(exception: unknown, request: PlainRequest): TaggedError {
  if (exception instanceof DeadlineExceededError) {
    logger.warn(
      { reqId: request.id, method: request.method, path: redactUrl(request.url), ...exception.fields },
      `deadline exceeded: ${exception.message}`,
    );
  }
  if (exception instanceof TaggedError) return exception;
  const status = clientStatus(exception);
  if (status === 404) return new NotFoundError(`Route not found: ${request.method} ${requestPath(request)}`);
  if (status === 401) return new UnauthorizedError();
  if (status === 403) return new ForbiddenError('Forbidden');
  if (status === 429) return new TooManyRequestsError('Too many requests', 60);
  if (status === 413) return new PayloadTooLargeError(request.routeOptions?.bodyLimit ?? 0);
  if (status === 415) return new InvalidRequestError('Unsupported Content-Type', 'content-type', 'Headers');
  if (status !== undefined && status < 500) {
    // Fastify's URIErrors (FST_ERR_BAD_URL, FST_ERR_MAX_PARAM_LENGTH): the path itself, not the body, is malformed.
    const part = exception instanceof URIError ? 'Params' : 'Body';
    return new InvalidRequestError(`Malformed request: ${(exception as Error).message}`, undefined, part);
  }
  if (isDatabaseUnavailable(exception)) {
    logger.warn(`database unavailable: ${request.method} ${redactUrl(request.url)} answered 503`);
    return new DatabaseUnavailableError();
  }
  const ref = errorRef();
  logger.error(
    {
      ref,
      reqId: request.id,
      err: loggableError(exception),
      method: request.method,
      path: redactUrl(request.url),
    },
    `unexpected error ${ref}`,
  );
  return new UnknownError(ref);
}

/**
 * Renders any failure as a tagged JSON body (or the surface's own shape, `body`); unknown ones get a `ref` that is in
 * the log.
 */
export function replyWithError(
  exception: unknown,
  request: HttpRequest,
  reply: HttpReply,
  body: ErrorBody = (error) => error.toBody(),
): void {
  const error = toTagged(exception, request);
  if (reply.sent || reply.raw.headersSent) {
    reply.raw.end();
    return;
  }
  void reply.status(error.status).headers(error.headers).send(body(error, request));
}

/** `replyWithError` for a request answered before Fastify (http-lanes.ts), on node's own response. */
export function writeError(
  exception: unknown,
  request: PlainRequest,
  response: ServerResponse,
  body: ErrorBody = (error) => error.toBody(),
): void {
  const error = toTagged(exception, request);
  if (response.headersSent) {
    response.destroy();
    return;
  }
  const headers = { ...error.headers, 'content-type': 'application/json; charset=utf-8' };
  writeWhole(response, error.status, headers, JSON.stringify(body(error, request)));
}

/** The one global filter: every failure leaves as a tagged JSON body, unknown ones with a `ref` in the log. */
@Catch()
export class ErrorFilter implements ExceptionFilter {
  constructor(
    private readonly registry: AuthRegistry,
    private readonly formats: ErrorFormats,
  ) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    this.reply(exception, http.getRequest<AuthenticatedRequest>(), http.getResponse<HttpReply>());
  }

  private reply(exception: unknown, request: AuthenticatedRequest, reply: HttpReply): void {
    const path = requestPath(request);
    const body = this.formats.find(path);
    // No route matched (the guard never ran): under a guarded prefix, credentials come before the 404.
    const authenticator =
      exception instanceof NotFoundException && !request.principal
        ? this.registry.findForUnknownRoute(path)
        : undefined;
    if (!authenticator) return replyWithError(exception, request, reply, body);
    authenticator.authenticate(request).then(
      () => replyWithError(exception, request, reply, body),
      (error: unknown) => replyWithError(error, request, reply, body),
    );
  }
}
