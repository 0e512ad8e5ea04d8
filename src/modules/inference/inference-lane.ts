import { Injectable } from '@nestjs/common';
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { writeError } from '../../common/errors/error.filter';
import { parseJson, readBody } from '../../common/http/body-parsers';
import { PlainRequest, requestPath } from '../../common/http/http';
import { LaneRoute } from '../../common/http/http-lanes';
import { jsonOnly } from '../../common/http/json-only';
import { ConsolePrincipal } from '../keys/access/console-principal';
import { ConsoleAuthenticator } from '../keys/access/console.authenticator';
import type { UpstreamSchema } from './gateway.config';
import { GatewayService } from './gateway.service';
import { inferenceErrorBody } from './inference-error-body';

/** Model requests carry whole conversations and images; only an authenticated caller gets past 64 KiB. */
export const INFERENCE_BODY_LIMIT = 10 * 1024 * 1024;

/** The model calls: the catalogue's OpenAI and Anthropic routes, and a connection's (`custom/{connection}/…`). */
const MODEL_CALL =
  /^\/inference\/(?:openai\/v1\/(chat\/completions|responses)|anthropic\/v1\/(messages)|custom\/([^/]+)\/(chat\/completions|responses|messages))\/?$/;
const SCHEMAS: Record<string, UpstreamSchema> = {
  'chat/completions': 'openai-chat',
  responses: 'openai-responses',
  messages: 'anthropic',
};

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
    private readonly authenticator: ConsoleAuthenticator,
  ) {}

  /** The lane: a model call with a key, or undefined. */
  readonly match = (raw: IncomingMessage): LaneRoute | undefined => {
    if (raw.method !== 'POST' || !raw.url!.startsWith('/inference/')) return undefined;
    const call = MODEL_CALL.exec(requestPath(raw as { url: string }));
    if (!call || !useKeyHeader(raw.headers)) return undefined;
    const [path, openai, anthropic, encodedConnection, custom] = call;
    const schema = SCHEMAS[openai ?? anthropic ?? custom];
    if (encodedConnection === undefined) {
      return {
        route: path,
        handle: (request, response) => this.serve(schema, undefined, request, raw, response),
      };
    }
    const connection = decodeParam(encodedConnection);
    if (connection === undefined) return undefined; // Fastify answers a bad %-encoding
    return {
      route: `/inference/custom/:connection/${custom}`,
      handle: (request, response) => this.serve(schema, connection, request, raw, response),
    };
  };

  /**
   * One model call of the route's `schema` (to the workspace's `connection`, if named), for a caller already
   * authenticated with its body read: the gateway answers on `response`.
   */
  answer(
    schema: UpstreamSchema,
    connection: string | undefined,
    body: unknown,
    principal: ConsolePrincipal,
    request: PlainRequest,
    response: ServerResponse,
  ): Promise<void> {
    const target =
      connection === undefined
        ? undefined
        : (model: string) => this.gateway.connectionTarget(principal.workspaceId!, connection, model, schema);
    return this.gateway.handle(schema, body, principal, request, response, target);
  }

  private async serve(
    schema: UpstreamSchema,
    connection: string | undefined,
    request: PlainRequest,
    raw: IncomingMessage,
    response: ServerResponse,
  ): Promise<void> {
    try {
      jsonOnly(request, (error) => {
        if (error) throw error;
      });
      const principal = await this.authenticator.authenticateModelCaller(request);
      const length = request.headers['content-length'];
      const text = await readBody(
        raw,
        INFERENCE_BODY_LIMIT,
        length === undefined ? undefined : Number(length),
      );
      await this.answer(schema, connection, parseJson(text), principal, request, response);
    } catch (error) {
      writeError(error, request, response, inferenceErrorBody);
    }
  }
}
