import { Injectable } from '@nestjs/common';
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { InvalidRequestError } from '@/common/errors';
import { writeError } from '@/common/errors/error.filter';
import { readBody } from '@/common/http/body-parsers';
import { MAX_PARAM_LENGTH, PlainRequest, requestPath } from '@/common/http/http';
import { LaneRoute } from '@/common/http/http-lanes';
import { assertJsonBody } from '@/common/http/json-only';
import { assertStorable } from '@/common/http/storable-input';
import { ConsoleAuthenticator } from '../console-access/console.authenticator';
import type { CallSchema } from './gateway.config';
import { SCHEMA_PATHS } from './inference-request';
import { withoutConnectionV1 } from './connection-path';
import { GatewayService, ModelCall } from './gateway.service';
import { GatewayTargets } from './gateway-targets';
import { inferenceErrorBody } from './inference-error-body';

/** Model requests carry whole conversations and images; only an authenticated caller gets past 64 KiB. */
export const INFERENCE_BODY_LIMIT = 10 * 1024 * 1024;

/** Each call schema's path after the API's `/v1` (`chat/completions`, `messages/count_tokens`, …). */
const ENDPOINTS = new Map(
  (Object.entries(SCHEMA_PATHS) as Array<[CallSchema, string]>).map(([schema, path]) => [
    path.slice(1),
    schema,
  ]),
);
const alternatives = (anthropic: boolean) =>
  [...ENDPOINTS]
    .filter(([, schema]) => schema.startsWith('anthropic') === anthropic)
    .map(([path]) => path.replace('/', '\\/'))
    .join('|');

/**
 * The model calls: the catalogue's OpenAI and Anthropic routes (`openai/v1/embeddings`, `anthropic/v1/messages`, …),
 * and a connection's (`custom/{connection}/…`, matched after `withoutConnectionV1` took away the SDKs' `/v1`),
 * built from SCHEMA_PATHS.
 */
const MODEL_CALL = new RegExp(
  `^/inference/(?:openai/v1/(${alternatives(false)})|anthropic/v1/(${alternatives(true)})|` +
    `custom/([^/]+)/(${alternatives(false)}|${alternatives(true)}))/?$`,
);

/**
 * A model call's body: JSON as it comes. It is never stored, so unlike the API's bodies (body-parsers.ts) its
 * strings may hold NUL characters and any key is kept (the gateway only reads it and copies it into a new object);
 * any depth parses, and one too deep to serialize again is refused by the gateway.
 */
function parseModelCall(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new InvalidRequestError(`Malformed JSON body: ${(error as Error).message}`, undefined, 'Body');
  }
}

function decodeParam(value: string): string | undefined {
  try {
    return decodeURIComponent(value);
  } catch {
    return undefined;
  }
}

/**
 * The key travels as `Authorization: Bearer` (OpenAI's SDK), `x-api-key` (Anthropic's) or `api-key` (Azure style);
 * in that order of precedence, it becomes the bearer credential the authenticator reads. False without any.
 */
export function useKeyHeader(headers: IncomingHttpHeaders): boolean {
  if (headers.authorization) return true;
  const key = headers['x-api-key'] ?? headers['api-key'];
  if (typeof key !== 'string' || !key) return false;
  headers.authorization = `Bearer ${key}`;
  return true;
}

/**
 * The gateway's model calls, answered before Fastify routes them (http-lanes.ts): the key is checked, then the
 * body read (up to 10 MiB, JSON only) and the call handed to the gateway; every failure in the route's error format.
 * A call without a key (401), and the model lists, go the ordinary way through `InferenceController`.
 */
@Injectable()
export class InferenceLane {
  constructor(
    private readonly gateway: GatewayService,
    private readonly targets: GatewayTargets,
    private readonly authenticator: ConsoleAuthenticator,
  ) {}

  /** The lane: a model call with a key, or undefined. */
  readonly match = (raw: IncomingMessage): LaneRoute | undefined => {
    if (raw.method !== 'POST' || !raw.url!.startsWith('/inference/')) return undefined;
    const call = MODEL_CALL.exec(withoutConnectionV1(requestPath(raw as { url: string })));
    if (!call || !useKeyHeader(raw.headers)) return undefined;
    const [path, openai, anthropic, encodedConnection, custom] = call;
    const schema = ENDPOINTS.get(openai ?? anthropic ?? custom)!;
    if (encodedConnection === undefined) {
      return {
        route: path.replace(/\/$/, ''),
        handle: (request, response) => this.serve(schema, undefined, request, raw, response),
      };
    }
    // What Fastify would not route: it answers them (404 past its longest parameter, 400 for a bad %-encoding).
    if (encodedConnection.length > MAX_PARAM_LENGTH) return undefined;
    const connection = decodeParam(encodedConnection);
    if (connection === undefined) return undefined;
    return {
      route: `/inference/custom/:connection/${custom}`,
      handle: (request, response) => {
        request.params = { connection };
        return this.serve(schema, connection, request, raw, response);
      },
    };
  };

  /** One model call, for a caller already authenticated with its body read: to the workspace's `connection`, if named. */
  answer(call: ModelCall & { connection?: string }, response: ServerResponse): Promise<void> {
    const { connection, principal, schema } = call;
    if (connection === undefined) return this.gateway.handle(call, response);
    const target = (model: string) =>
      this.targets.connectionTarget(principal.workspaceId!, connection, model, schema);
    return this.gateway.handle({ ...call, target }, response);
  }

  private async serve(
    schema: CallSchema,
    connection: string | undefined,
    request: PlainRequest,
    raw: IncomingMessage,
    response: ServerResponse,
  ): Promise<void> {
    try {
      // The rule Fastify's routes apply to their parameters (app.setup.ts): a NUL would reach PostgreSQL.
      assertStorable(request.params, 'Params');
      assertJsonBody(request);
      const principal = await this.authenticator.authenticateModelCaller(request);
      const length = request.headers['content-length'];
      const text = await readBody(
        raw,
        INFERENCE_BODY_LIMIT,
        length === undefined ? undefined : Number(length),
      );
      const body = parseModelCall(text);
      await this.answer({ schema, connection, body, text, principal, request }, response);
    } catch (error) {
      writeError(error, request, response, inferenceErrorBody);
    }
  }
}
