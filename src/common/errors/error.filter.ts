import {
  ArgumentsHost,
  Catch,
  ExceptionFilter,
  HttpException,
  Logger,
  NotFoundException,
} from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import type { Request, Response } from 'express';
import { AuthenticatedRequest, AuthRegistry } from '../auth';
import {
  ForbiddenError,
  InvalidRequestError,
  NotFoundError,
  PayloadTooLargeError,
  TooManyRequestsError,
  UnauthorizedError,
  UnknownError,
} from './http-errors';
import { TaggedError } from './tagged-error';

/** body-parser's failures carry a `type`; they are the client's fault, not ours. */
interface BodyParserError {
  type: string;
  limit?: number;
  status?: number;
}

function isBodyParserError(error: unknown): error is BodyParserError {
  return typeof error === 'object' && error !== null && typeof (error as BodyParserError).type === 'string';
}

/** The one global filter: every failure leaves as a tagged JSON body, unknown ones with a `ref` in the log. */
@Catch()
export class ErrorFilter implements ExceptionFilter {
  private readonly logger = new Logger('Errors');

  constructor(private readonly registry: AuthRegistry) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const request = http.getRequest<AuthenticatedRequest>();
    const response = http.getResponse<Response>();
    // No route matched (the guard never ran): under a guarded prefix, credentials come before the 404.
    const authenticator =
      exception instanceof NotFoundException && !request.principal
        ? this.registry.findForUnknownRoute(request.path)
        : undefined;
    if (authenticator) {
      authenticator.authenticate(request).then(
        () => this.render(exception, request, response),
        (error: unknown) => this.render(error, request, response),
      );
      return;
    }
    this.render(exception, request, response);
  }

  private render(exception: unknown, request: Request, response: Response): void {
    const error = this.toTagged(exception, request);
    if (response.headersSent) {
      response.end();
      return;
    }
    response.status(error.status).set(error.headers).json(error.toBody());
  }

  private toTagged(exception: unknown, request: Request): TaggedError {
    if (exception instanceof TaggedError) return exception;
    if (isBodyParserError(exception)) {
      if (exception.type === 'entity.too.large') return new PayloadTooLargeError(exception.limit ?? 0);
      if (exception.type === 'charset.unsupported' || exception.type === 'encoding.unsupported') {
        return new InvalidRequestError('Unsupported body encoding');
      }
    }
    if (exception instanceof HttpException) {
      const status = exception.getStatus();
      if (status === 404) return new NotFoundError(`Route not found: ${request.method} ${request.path}`);
      if (status === 401) return new UnauthorizedError();
      if (status === 403) return new ForbiddenError('Forbidden');
      if (status === 429) return new TooManyRequestsError('Too many requests', 60);
      // Nest turns body-parser's JSON SyntaxError and a bad %-encoding in the path into a plain 400.
      if (status === 400) return new InvalidRequestError(`Malformed request: ${exception.message}`);
    }
    const ref = `err_${randomBytes(6).toString('hex')}`;
    this.logger.error(
      { ref, err: exception, method: request.method, path: request.path },
      `unexpected error ${ref}`,
    );
    return new UnknownError(ref);
  }
}
