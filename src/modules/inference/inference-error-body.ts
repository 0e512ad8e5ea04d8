import { TaggedError } from '@/common/errors';
import { PlainRequest } from '@/common/http/http';

/** OpenAI's `type` for our statuses, so the official SDKs raise the matching error class. */
const OPENAI_TYPES: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  402: 'insufficient_quota',
  403: 'permission_error',
  404: 'not_found_error',
  413: 'invalid_request_error',
  429: 'rate_limit_error',
  502: 'api_error',
};
const ANTHROPIC_TYPES: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  402: 'billing_error',
  403: 'permission_error',
  404: 'not_found_error',
  413: 'request_too_large',
  429: 'rate_limit_error',
  502: 'api_error',
};

/** Routes that speak Anthropic's API: the catalogue's, and a connection's `/messages`. */
const ANTHROPIC_ROUTE = /^\/inference\/(anthropic\/|custom\/[^/?]+\/(v1\/)?messages(\?|$))/;

/**
 * An error of the inference routes in the caller's format, so the SDKs show it: OpenAI routes answer
 * `{ error: { message, type, code } }`, Anthropic routes `{ type: "error", error: { type, message } }`.
 * Our tag goes in `code` (OpenAI) and next to the error (Anthropic, `error.code`); other members (`resets_at`)
 * are kept. Registered for `/inference/` with the global filter, so a malformed body gets it too.
 */
export function inferenceErrorBody(error: TaggedError, request: PlainRequest): unknown {
  const { _tag, message, ...fields } = error.toBody() as { _tag: string; message: string };
  const status = error.status;
  if (ANTHROPIC_ROUTE.test(request.url)) {
    return {
      type: 'error',
      error: { type: ANTHROPIC_TYPES[status] ?? 'api_error', message, code: _tag, ...fields },
      ...fields,
    };
  }
  return {
    error: {
      message,
      type: OPENAI_TYPES[status] ?? 'api_error',
      code: _tag,
      param: (fields as Record<string, unknown>).field ?? null,
      ...fields,
    },
    ...fields,
  };
}
