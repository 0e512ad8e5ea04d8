import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Params } from 'nestjs-pino';
import { REDACTED_LOG_PATHS, redactUrl } from './common/http/redact';

const REQUEST_ID = /^[A-Za-z0-9._-]{1,100}$/;

/** Structured JSON logs, one request id per request (echoed as `x-request-id`), secrets redacted. */
export function loggerOptions(level: string): Params {
  return {
    pinoHttp: {
      level,
      redact: { paths: REDACTED_LOG_PATHS, censor: '[redacted]' },
      genReqId: (request: IncomingMessage, response: ServerResponse) => {
        const given = request.headers['x-request-id'];
        const id = typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
        response.setHeader('x-request-id', id);
        return id;
      },
      serializers: {
        req: (request: { id: unknown; method: string; url: string; headers: Record<string, unknown> }) => ({
          id: request.id,
          method: request.method,
          url: redactUrl(request.url),
          headers: request.headers,
        }),
      },
      customLogLevel: (_request, response, error) =>
        error || response.statusCode >= 500 ? 'error' : response.statusCode >= 400 ? 'warn' : 'info',
      quietReqLogger: true,
    },
  };
}
