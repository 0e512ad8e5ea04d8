import { RouteConfig } from '@nestjs/platform-fastify';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { IncomingMessage } from 'node:http';
import { parse as parseForm } from 'node:querystring';
import secureJson from 'secure-json-parse';
import { AuthenticatedRequest, AuthRegistry } from '../auth';
import { InvalidRequestError, PayloadTooLargeError } from '../errors';
import { requestPath } from './http';
import { SpooledBody, spoolBody } from './spooled-body';
import { assertStorable, MAX_JSON_DEPTH, nestsDeeperThan } from './storable-input';

/** What a route accepts without saying more, and what every unauthenticated request is held to. */
export const DEFAULT_BODY_LIMIT = 64 * 1024;

/**
 * A route that takes bodies larger than the default says so: `@BodyLimit(50 * 1024 * 1024)`. Its callers are
 * authenticated before a byte past the default limit is read, so an anonymous client never costs more.
 */
export const BodyLimit = (bytes: number) => RouteConfig({ bodyLimit: bytes });

/**
 * A route that reads its JSON body as it streams (`request.body` is the body's chunks, see `StreamedBody`): held to
 * the operator's `OUTPOST_IMPORT_BODY_LIMIT`, its callers authenticated before a byte past the default is read.
 */
export const StreamsBody = () => RouteConfig({ streamsBody: true });

/**
 * The body of a `StreamsBody` route: its chunks, read from the temporary file it was written to as it arrived
 * (spooled-body.ts; a 413 past the limit), at the route's own pace.
 */
export type StreamedBody = AsyncIterable<Buffer>;

export interface BodyLimits {
  /** Of every route that declares none, and of every unauthenticated request (OUTPOST_BODY_LIMIT). */
  default: number;
  /** Of the routes that stream their body (OUTPOST_IMPORT_BODY_LIMIT). */
  streamed: number;
}

const STREAMED_LIMIT_SETTING = 'OUTPOST_IMPORT_BODY_LIMIT';

/** The temporary files of `StreamsBody` routes' bodies, by request. */
const spooledBodies = new WeakMap<FastifyRequest, SpooledBody>();

function streamsBody(request: FastifyRequest): boolean {
  return (request.routeOptions.config as { streamsBody?: boolean } | undefined)?.streamsBody === true;
}

function routeLimit(request: FastifyRequest, defaultLimit: number): number {
  const declared = (request.routeOptions.config as { bodyLimit?: number } | undefined)?.bodyLimit;
  return typeof declared === 'number' ? declared : defaultLimit;
}

/** Reads the body up to `limit` bytes: a larger declared length is refused at once, a longer stream is cut. */
export function readBody(
  payload: IncomingMessage,
  limit: number,
  declared: number | undefined,
): Promise<string> {
  if (declared !== undefined && declared > limit) return Promise.reject(new PayloadTooLargeError(limit));
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const fail = (error: Error) => {
      payload.removeAllListeners('data');
      payload.resume(); // drain what is in flight; the reply closes the connection
      reject(error);
    };
    payload.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) fail(new PayloadTooLargeError(limit));
      else chunks.push(chunk);
    });
    payload.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    payload.on('error', reject);
  });
}

/** `path`: where the text sits in the body (`messages.3`), for the field a failure names. */
export function parseJson(text: string, path = ''): unknown {
  if (text === '') return {}; // clients that send `Content-Type: application/json` without a body
  if (nestsDeeperThan(text, MAX_JSON_DEPTH)) {
    throw new InvalidRequestError(`Body nests deeper than ${MAX_JSON_DEPTH} levels`, undefined, 'Body');
  }
  let value: unknown;
  try {
    value = secureJson.parse(text, undefined, { protoAction: 'error', constructorAction: 'error' });
  } catch (error) {
    throw new InvalidRequestError(`Malformed JSON body: ${(error as Error).message}`, undefined, 'Body');
  }
  assertStorable(value, 'Body', path);
  return value;
}

function parseFormBody(text: string): unknown {
  const value = { ...parseForm(text) };
  assertStorable(value, 'Body');
  return value;
}

/**
 * JSON (an empty body reads as `{}`; `__proto__` and `constructor.prototype` keys are refused; nesting deeper than
 * 64 and NUL characters are a 400) and HTML forms. Each route's limit is the default unless it declares its own.
 */
export function registerBodyParsers(
  server: FastifyInstance,
  registry: AuthRegistry,
  limits: BodyLimits = { default: DEFAULT_BODY_LIMIT, streamed: DEFAULT_BODY_LIMIT },
): void {
  const defaultLimit = limits.default;
  const reader =
    (parse: (text: string) => unknown) => async (request: FastifyRequest, payload: IncomingMessage) => {
      const streamed = parse === parseJson && streamsBody(request);
      const limit = streamed ? limits.streamed : routeLimit(request, defaultLimit);
      const length = request.headers['content-length'];
      const declared = length === undefined ? undefined : Number(length);
      if (limit > defaultLimit && (declared === undefined || declared > defaultLimit)) {
        // A large body is read only for a caller with valid credentials.
        await registry.find(requestPath(request))?.authenticate(request as AuthenticatedRequest);
      }
      if (!streamed) return parse(await readBody(payload, limit, declared));
      if (declared !== undefined && declared > limit)
        throw new PayloadTooLargeError(limit, STREAMED_LIMIT_SETTING);
      const spooled = await spoolBody(payload, limit, STREAMED_LIMIT_SETTING);
      spooledBodies.set(request, spooled);
      return spooled.chunks;
    };
  // A spooled body's file goes once its request is answered (or its connection lost).
  server.addHook('onResponse', async (request) => {
    await spooledBodies.get(request)?.remove();
  });
  server.addHook('onRequestAbort', async (request) => {
    await spooledBodies.get(request)?.remove();
  });
  server.removeContentTypeParser(['application/json', 'text/plain']);
  server.addContentTypeParser('application/json', reader(parseJson));
  server.addContentTypeParser(
    'text/plain',
    reader((text) => (assertStorable(text, 'Body'), text)),
  );
  server.addContentTypeParser('application/x-www-form-urlencoded', reader(parseFormBody));
}
