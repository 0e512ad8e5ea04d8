import { Inject, Injectable } from '@nestjs/common';
import { request as upstreamRequest } from 'undici';
import type { Dispatcher } from 'undici';
import { HttpReply, HttpRequest } from '../../common/http/http';
import { BudgetsService } from '../budgets/budgets.service';
import { ConsolePrincipal } from '../keys/access/console-principal';
import {
  CatalogueModel,
  CatalogueProvider,
  gatewayConfig,
  GatewayConfig,
  UpstreamSchema,
} from './gateway.config';
import {
  InvalidInferenceRequestError,
  microCentsToUsd,
  ModelNotFoundError,
  UpstreamError,
  UserLimitError,
} from './gateway.errors';
import { costOf, NO_USAGE, StreamUsage, TokenUsage, usageOfAnswer } from './usage';
import {
  gatewayAddedSeconds,
  gatewayCost,
  gatewayRequests,
  gatewayTokens,
} from '../../common/metrics/metrics';

type Json = Record<string, unknown>;

/** Waits before retrying a provider's 429/529, only while nothing was sent to the client yet. */
const RETRY_DELAYS_MS = [250, 750];
/** Upstream answer headers passed on; everything else (cookies, provider ids, rate-limit details) stays behind. */
const PASSED_HEADERS = ['content-type', 'cache-control'];

interface ParsedRequest {
  model: string;
  stream: boolean;
  maxTokens: number | undefined;
}

/** The request members the gateway itself reads; everything else goes to the provider as sent. */
function parse(body: unknown, schema: UpstreamSchema): ParsedRequest {
  if (!body || typeof body !== 'object' || Array.isArray(body))
    throw new InvalidInferenceRequestError('body', 'must be a JSON object');
  const b = body as Json;
  if (typeof b.model !== 'string' || !b.model)
    throw new InvalidInferenceRequestError('model', 'must be a model id');
  if (!Array.isArray(b.messages)) throw new InvalidInferenceRequestError('messages', 'must be an array');
  if (b.stream !== undefined && typeof b.stream !== 'boolean')
    throw new InvalidInferenceRequestError('stream', 'must be true or false');
  const limitField =
    schema === 'anthropic'
      ? 'max_tokens'
      : b.max_completion_tokens !== undefined
        ? 'max_completion_tokens'
        : 'max_tokens';
  const max = b[limitField];
  if (max !== undefined && (typeof max !== 'number' || !Number.isInteger(max) || max < 1)) {
    throw new InvalidInferenceRequestError(limitField, 'must be a whole number ≥ 1');
  }
  if (schema === 'anthropic' && max === undefined)
    throw new InvalidInferenceRequestError('max_tokens', 'is required');
  return { model: b.model, stream: b.stream === true, maxTokens: max as number | undefined };
}

/**
 * One gateway request: the caller's model must be in the catalogue; its worst-case cost is held against the
 * member's monthly budget (one atomic statement); the request goes to the provider (streams pass through as
 * they come; a client that leaves aborts the upstream call); the real usage settles the hold and is recorded.
 */
@Injectable()
export class GatewayService {
  constructor(
    @Inject(gatewayConfig.KEY) private readonly config: GatewayConfig,
    private readonly budgets: BudgetsService,
  ) {}

  /** A model by `<provider>/<model>`, or by its bare id when one provider has it. */
  model(id: string): CatalogueModel {
    const exact = this.config.catalogue.models.get(id);
    if (exact) return exact;
    const bare = [...this.config.catalogue.models.values()].find(
      (model) => model.upstreamId === id || model.id.endsWith(`/${id}`),
    );
    if (!bare) throw new ModelNotFoundError(id);
    return bare;
  }

  models(): CatalogueModel[] {
    return [...this.config.catalogue.models.values()];
  }

  async handle(
    schema: UpstreamSchema,
    body: unknown,
    principal: ConsolePrincipal,
    request: HttpRequest,
    reply: HttpReply,
  ): Promise<void> {
    const started = performance.now();
    const parsed = parse(body, schema);
    const model = this.model(parsed.model);
    const provider = this.config.catalogue.providers.get(model.provider)!;
    if (provider.schema !== schema) {
      throw new InvalidInferenceRequestError(
        'model',
        `"${model.id}" is served at the ${provider.schema === 'anthropic' ? '/inference/anthropic/v1/messages' : '/inference/openai/v1/chat/completions'} route`,
      );
    }
    if (!provider.credential)
      throw new UpstreamError(`The provider "${provider.id}" has no credential on this gateway`);
    const text = JSON.stringify(body);
    const inputEstimate = Math.ceil(text.length / 4);
    const worst = costOf(model, {
      ...NO_USAGE,
      input: inputEstimate,
      output: parsed.maxTokens ?? model.maxOutput,
    });
    const workspaceId = principal.workspaceId!;
    const memberId = principal.serviceAccountId ?? principal.userId!;
    const refused = await this.budgets.hold(workspaceId, memberId, worst);
    if (refused) {
      gatewayRequests.inc({ schema, model: model.id, outcome: 'budget_refused' });
      throw new UserLimitError(refused.resetsAt, refused.limitMicroCents ?? 0n, refused.spentMicroCents);
    }

    let settled = false;
    const settle = async (usage: TokenUsage, outcome = 'answered'): Promise<bigint> => {
      const cost = costOf(model, usage);
      if (settled) return cost;
      settled = true;
      gatewayRequests.inc({ schema, model: model.id, outcome });
      for (const [kind, tokens] of Object.entries({
        input: usage.input,
        output: usage.output,
        cache_read: usage.cacheRead,
        cache_write: usage.cacheWrite,
      })) {
        if (tokens > 0) gatewayTokens.inc({ model: model.id, kind }, tokens);
      }
      if (cost > 0n) gatewayCost.inc({ model: model.id }, Number(cost) / 100_000_000);
      await this.budgets.settle(
        {
          workspaceId,
          memberId,
          keyId: principal.credential === 'session' ? null : principal.credentialId,
          model: model.id,
          inputTokens: usage.input,
          outputTokens: usage.output,
          cacheReadTokens: usage.cacheRead,
          cacheWriteTokens: usage.cacheWrite,
          costMicroCents: cost,
        },
        worst,
      );
      return cost;
    };
    const abort = new AbortController();
    reply.raw.on('close', () => {
      if (!reply.raw.writableFinished) abort.abort();
    });
    const streamUsage = new StreamUsage(schema, inputEstimate);
    try {
      const payload: Json = { ...(body as Json), model: model.upstreamId };
      if (schema === 'openai-chat' && parsed.stream) {
        payload.stream_options = { ...((payload.stream_options as Json) ?? {}), include_usage: true };
      }
      gatewayAddedSeconds.observe({ schema }, (performance.now() - started) / 1000);
      const upstream = await this.send(provider, schema, payload, request, abort.signal);
      const gatewayMs = (performance.now() - started).toFixed(2);
      if (upstream.statusCode >= 500) {
        await upstream.body.dump();
        await settle(NO_USAGE, 'upstream_error');
        throw new UpstreamError(`The provider answered ${upstream.statusCode}`, upstream.statusCode);
      }
      const headers: Record<string, string> = {
        'x-request-id': String(request.id),
        'x-outpost-gateway-ms': gatewayMs,
      };
      for (const name of PASSED_HEADERS) {
        const value = upstream.headers[name];
        if (typeof value === 'string') headers[name] = value;
      }
      if (upstream.statusCode >= 400 || !parsed.stream) {
        const answer = await upstream.body.text();
        let json: Json | undefined;
        try {
          json = JSON.parse(answer) as Json;
        } catch {}
        if (upstream.statusCode >= 400 || !json) {
          await settle(NO_USAGE, 'upstream_refused');
          void reply.status(upstream.statusCode).headers(headers).send(answer);
          return;
        }
        // The answer leaves first; the hold settles right after (the caller does not wait for the bookkeeping).
        const usage = usageOfAnswer(schema, json);
        await reply
          .status(upstream.statusCode)
          .headers(headers)
          .type('application/json')
          .send(JSON.stringify({ ...json, cost: microCentsToUsd(costOf(model, usage)) }));
        await settle(usage);
        return;
      }
      reply.hijack();
      reply.raw.writeHead(upstream.statusCode, {
        ...headers,
        'cache-control': 'no-cache',
        connection: 'keep-alive',
      });
      for await (const chunk of upstream.body) {
        streamUsage.push(chunk as Buffer);
        reply.raw.write(chunk);
      }
      reply.raw.end();
      await settle(streamUsage.result());
    } catch (error) {
      // A client that left mid-stream, or a provider that failed: bill what was produced, then answer (if still possible).
      await settle(
        streamUsage.result().output > 0 ? streamUsage.result() : NO_USAGE,
        abort.signal.aborted ? 'client_left' : 'failed',
      );
      if (abort.signal.aborted) return;
      if (reply.sent) {
        reply.raw.destroy();
        return;
      }
      if (error instanceof Error && 'status' in error) throw error;
      throw new UpstreamError(
        `The provider could not be reached (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`,
      );
    }
  }

  private async send(
    provider: CatalogueProvider,
    schema: UpstreamSchema,
    payload: Json,
    request: HttpRequest,
    signal: AbortSignal,
  ): Promise<Dispatcher.ResponseData> {
    const path = schema === 'anthropic' ? '/messages' : '/chat/completions';
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (schema === 'anthropic') {
      headers['x-api-key'] = provider.credential!;
      headers['anthropic-version'] = String(request.headers['anthropic-version'] ?? '2023-06-01');
      if (request.headers['anthropic-beta'])
        headers['anthropic-beta'] = String(request.headers['anthropic-beta']);
    } else {
      headers.authorization = `Bearer ${provider.credential}`;
    }
    const body = JSON.stringify(payload);
    for (let attempt = 0; ; attempt++) {
      const response = await upstreamRequest(`${provider.baseUrl}${path}`, {
        method: 'POST',
        headers,
        body,
        signal,
      });
      const retry =
        (response.statusCode === 429 || response.statusCode === 529) && attempt < RETRY_DELAYS_MS.length;
      if (!retry) return response;
      await response.body.dump();
      await new Promise((resolve) => setTimeout(resolve, RETRY_DELAYS_MS[attempt]));
    }
  }
}
