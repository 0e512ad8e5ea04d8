import { InvalidRequestError } from '../errors';
import { PlainRequest } from './http';

/** The JSON APIs; the console's pages and the device endpoints also take forms. */
const JSON_PREFIXES = ['/api/', '/console/api/', '/inference/'];
const JSON_TYPE = /^application\/json\s*(;|$)/i;

function hasBody(request: PlainRequest): boolean {
  const length = request.headers['content-length'];
  return (length !== undefined && length !== '0') || request.headers['transfer-encoding'] !== undefined;
}

/** JSON APIs take JSON: a body of another content type is refused before it reaches a handler. */
export function assertJsonBody(request: PlainRequest): void {
  if (
    hasBody(request) &&
    JSON_PREFIXES.some((prefix) => request.url.startsWith(prefix)) &&
    !JSON_TYPE.test(request.headers['content-type'] ?? '')
  ) {
    throw new InvalidRequestError('Content-Type must be application/json', 'content-type', 'Headers');
  }
}

/** `assertJsonBody` as a Fastify hook step. */
export function jsonOnly(request: PlainRequest, done: (error?: Error) => void): void {
  try {
    assertJsonBody(request);
  } catch (error) {
    done(error as Error);
    return;
  }
  done();
}
