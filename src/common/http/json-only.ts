import { InvalidRequestError } from '../errors';
import { PlainRequest } from './http';

/** The JSON APIs' URL prefixes, as each surface's module registers them; its pages and forms are elsewhere. */
const JSON_PREFIXES: string[] = [];

/** Marks the routes under `prefix` as a JSON API: a body of another content type is refused there. */
export function registerJsonApi(prefix: string): void {
  if (!JSON_PREFIXES.includes(prefix)) JSON_PREFIXES.push(prefix);
}
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
