import { ArgumentsHost, Catch, ExceptionFilter } from '@nestjs/common';
import { InvalidRequestError, TaggedError } from '@/common/errors';
import { replyWithError } from '@/common/errors/error.filter';
import { HttpReply, HttpRequest } from '@/common/http/http';

/**
 * An error in the form opencode 1.18.33's v1 routes answer, which its CLI and TUI read: a refused input is
 * `{ data, errors: [{ message, path }], success: false }` (the input itself is not echoed: `data` is null), anything
 * else a named error `{ name, data: { message, …fields } }`, every 404 named `NotFoundError`. Status and headers
 * (the 401's challenge) are Outpost's.
 */
export function v1ErrorBody(error: TaggedError): Record<string, unknown> {
  const { _tag, message, ...fields } = error.toBody() as { _tag: string; message: string; field?: string };
  if (error instanceof InvalidRequestError) {
    const path = fields.field === undefined ? [] : [fields.field];
    return { data: null, errors: [{ message, path, ...fields }], success: false };
  }
  return { name: error.status === 404 ? 'NotFoundError' : _tag, data: { message, ...fields } };
}

/** The v1 controllers' errors (their guards' and pipes' too) in opencode's v1 forms. */
@Catch()
export class V1ErrorFilter implements ExceptionFilter {
  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    replyWithError(exception, http.getRequest<HttpRequest>(), http.getResponse<HttpReply>(), v1ErrorBody);
  }
}
