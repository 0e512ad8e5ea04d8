import { ArgumentsHost, Catch, ExceptionFilter } from '@nestjs/common';
import { replyWithError } from '../../common/errors/error.filter';
import { TaggedError } from '../../common/errors';
import { HttpReply, HttpRequest } from '../../common/http/http';

/** OpenAI's `type` for our statuses, so the official SDKs raise the matching error class. */
const OPENAI_TYPES: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  403: 'permission_error',
  404: 'not_found_error',
  413: 'invalid_request_error',
  429: 'rate_limit_error',
  502: 'api_error',
};
const ANTHROPIC_TYPES: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  403: 'permission_error',
  404: 'not_found_error',
  413: 'request_too_large',
  429: 'rate_limit_error',
  502: 'api_error',
};

/** Routes that speak Anthropic's API: the catalogue's, and a connection's `/messages`. */
const ANTHROPIC_ROUTE = /^\/inference\/(anthropic\/|custom\/[^/?]+\/messages(\?|$))/;

/**
 * Errors of the inference routes in the caller's format, so the SDKs show them: OpenAI routes answer
 * `{ error: { message, type, code } }`, Anthropic routes `{ type: "error", error: { type, message } }`.
 * Our tag goes in `code` (OpenAI) and next to the error (Anthropic, `error.code`); other members (`resets_at`)
 * are kept.
 */
@Catch()
export class InferenceErrorFilter implements ExceptionFilter {
  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const request = http.getRequest<HttpRequest>();
    const reply = http.getResponse<HttpReply>();
    if (!(exception instanceof TaggedError)) return replyWithError(exception, request, reply);
    if (reply.sent || reply.raw.headersSent) {
      reply.raw.end();
      return;
    }
    const { _tag, message, ...fields } = exception.toBody() as { _tag: string; message: string };
    const status = exception.status;
    const anthropic = ANTHROPIC_ROUTE.test(request.url);
    const body = anthropic
      ? {
          type: 'error',
          error: { type: ANTHROPIC_TYPES[status] ?? 'api_error', message, code: _tag, ...fields },
          ...fields,
        }
      : {
          error: {
            message,
            type: OPENAI_TYPES[status] ?? 'api_error',
            code: _tag,
            param: (fields as Record<string, unknown>).field ?? null,
            ...fields,
          },
          ...fields,
        };
    void reply.status(status).headers(exception.headers).send(body);
  }
}
