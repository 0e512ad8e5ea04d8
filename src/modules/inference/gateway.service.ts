import { Inject, Injectable, OnApplicationShutdown } from '@nestjs/common';
import { Agent } from 'undici';
import type { ServerResponse } from 'node:http';
import { PlainRequest } from '../../common/http/http';
import { writeHead, writeWhole } from '../../common/http/response-head';
import { BudgetsService } from '../budgets/budgets.service';
import { ConsolePrincipal } from '../keys/access/console-principal';
import { UsageLedger } from '../budgets/usage-ledger.service';
import { ConnectionsService } from '../connections/connections.service';
import { WorkspacePolicies } from '../workspace-config/workspace-policies.service';
import { CatalogueModel, gatewayConfig, GatewayConfig, UpstreamSchema } from './gateway.config';
import {
  InvalidInferenceRequestError,
  microCentsToUsd,
  ModelError,
  ModelNotFoundError,
  UpstreamError,
  UserLimitError,
  WorkspaceLimitError,
} from './gateway.errors';
import { parseInferenceRequest, SCHEMA_PATHS } from './inference-request';
import { ProviderCall, splitBaseUrl } from './provider-call';
import { providerRequest } from './provider-request';
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
/** The output a connection's model may produce, held when the request sets no limit (as the catalogue's default). */
const CONNECTION_MAX_OUTPUT = 32_000;

/**
 * The provider's JSON answer (an object) with Zen's `cost` member (USD) added: spliced before the closing brace
 * rather than the whole answer serialized again, unless the answer is empty or has a `cost` of its own (then ours
 * replaces it).
 */
function withCost(text: string, json: Json, cost: string): string {
  const end = text.lastIndexOf('}');
  if ('cost' in json || Object.keys(json).length === 0) return JSON.stringify({ ...json, cost });
  return `${text.slice(0, end)},"cost":${JSON.stringify(cost)}}`;
}

/** A call's outcome in the metrics. */
function countRequest(schema: UpstreamSchema, model: string, outcome: string): void {
  gatewayRequests.add({ schema, model, outcome });
}

/** A settled call's tokens, by kind, in the metrics. */
function countTokens(model: string, usage: TokenUsage): void {
  const count = (kind: string, tokens: number) => {
    if (tokens > 0) gatewayTokens.add({ model, kind }, tokens);
  };
  count('input', usage.input);
  count('output', usage.output);
  count('cache_read', usage.cacheRead);
  count('cache_write', usage.cacheWrite);
}

/** One model call: the route's API `schema`, the caller's request (`text` as it came, when the caller has it). */
export interface ModelCall {
  schema: UpstreamSchema;
  body: unknown;
  text?: string;
  principal: ConsolePrincipal;
  request: PlainRequest;
  /** Picks the upstream from the request's model: the catalogue's provider unless given (a workspace connection). */
  target?: (model: string) => UpstreamTarget | Promise<UpstreamTarget>;
}

/** The client of one model call: whether it left, and the provider call to cancel when it does. */
interface Caller {
  left: boolean;
  call?: ProviderCall;
}

/**
 * Where a request goes: a provider of the operator's catalogue, or one of the workspace's own connections
 * (bring your own key), with the model priced for metering.
 */
export interface UpstreamTarget {
  /** What policies name: the catalogue's provider id, or the connection's id. */
  provider: string;
  baseUrl: string;
  schema: UpstreamSchema;
  credential: string | undefined;
  /** The header the credential travels in: null for `Authorization: Bearer`. */
  credentialHeader: string | null;
  model: CatalogueModel;
}

/**
 * One gateway request: the caller's model must be in the catalogue (or the connection) and allowed by the
 * workspace's policies; its worst-case cost is held against the member's monthly budget (one atomic
 * statement); the request goes to the provider (streams pass through as they come; a client that leaves aborts
 * the upstream call); the real usage settles the hold and is recorded in the next batch.
 */
@Injectable()
export class GatewayService implements OnApplicationShutdown {
  /** The connections to providers, kept alive between calls. */
  private readonly agent = new Agent();

  constructor(
    @Inject(gatewayConfig.KEY) private readonly config: GatewayConfig,
    private readonly budgets: BudgetsService,
    private readonly ledger: UsageLedger,
    private readonly policies: WorkspacePolicies,
    private readonly connections: ConnectionsService,
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

  /** What a workspace may call: the catalogue's models its policies allow, and its connections' models. */
  async modelsOf(workspaceId: string): Promise<Array<{ id: string; provider: string }>> {
    const allowed: Array<{ id: string; provider: string }> = [];
    for (const model of this.models()) {
      if (await this.policies.allows(workspaceId, model.provider, model.id)) allowed.push(model);
    }
    for (const connection of await this.connections.list(workspaceId)) {
      for (const modelId of Object.keys(connection.models)) {
        const id = `${connection.id}/${modelId}`;
        if (await this.policies.allows(workspaceId, connection.id, id))
          allowed.push({ id, provider: connection.id });
      }
    }
    return allowed;
  }

  /** The catalogue's provider of a model, which must speak the route's schema. */
  catalogueTarget(modelId: string, schema: UpstreamSchema): UpstreamTarget {
    const model = this.model(modelId);
    const provider = this.config.catalogue.providers.get(model.provider)!;
    if (provider.schema !== schema) {
      const route = `/inference/${provider.schema === 'anthropic' ? 'anthropic' : 'openai'}/v1${SCHEMA_PATHS[provider.schema]}`;
      throw new InvalidInferenceRequestError('model', `"${model.id}" is served at the ${route} route`);
    }
    return {
      provider: provider.id,
      baseUrl: provider.baseUrl,
      schema,
      credential: provider.credential,
      credentialHeader: schema === 'anthropic' ? 'x-api-key' : null,
      model,
    };
  }

  /** A workspace connection's model (bring your own key); the connection must speak the route's schema. */
  async connectionTarget(
    workspaceId: string,
    connectionId: string,
    modelId: string,
    schema: UpstreamSchema,
  ): Promise<UpstreamTarget> {
    const connection = await this.connections.forInference(workspaceId, connectionId);
    if (connection.schema !== schema) {
      const route = `/inference/custom/${connection.id}${SCHEMA_PATHS[connection.schema]}`;
      throw new InvalidInferenceRequestError('model', `connection "${connection.id}" is served at ${route}`);
    }
    const model = connection.models.get(modelId);
    if (!model) throw new ModelNotFoundError(modelId);
    const prices = model.prices ?? { input: 0n, output: 0n, cacheRead: 0n, cacheWrite: 0n };
    return {
      provider: connection.id,
      baseUrl: connection.baseUrl,
      schema,
      credential: connection.credential,
      credentialHeader: connection.authMode === 'header' ? connection.authHeader : null,
      model: {
        id: `${connection.id}/${modelId}`,
        provider: connection.id,
        upstreamId: modelId,
        prices,
        maxOutput: CONNECTION_MAX_OUTPUT,
      },
    };
  }

  /**
   * Answers one model call on `response`. A failure before the answer began is thrown, for the caller to answer in
   * the route's error format.
   */
  async handle(call: ModelCall, response: ServerResponse): Promise<void> {
    const { schema, body, principal, request } = call;
    const started = performance.now();
    const parsed = parseInferenceRequest(body, schema);
    const upstream = await (call.target ?? ((id: string) => this.catalogueTarget(id, schema)))(parsed.model);
    const { model } = upstream;
    const workspaceId = principal.workspaceId!;
    if (!(await this.policies.allows(workspaceId, upstream.provider, model.id))) {
      countRequest(schema, model.id, 'policy_refused');
      throw new ModelError(model.id);
    }
    if (!upstream.credential)
      throw new UpstreamError(`The provider "${upstream.provider}" has no credential on this gateway`);
    const payloadText = providerRequest(schema, body as Json, call.text, model.upstreamId, parsed.stream);
    const inputEstimate = Math.ceil(payloadText.length / 4);
    const worst = costOf(model, {
      ...NO_USAGE,
      input: inputEstimate,
      output: parsed.maxTokens ?? model.maxOutput,
    });
    const memberId = principal.serviceAccountId ?? principal.userId!;
    const hold = await this.budgets.hold(workspaceId, memberId, worst);
    if (!hold.held) {
      countRequest(schema, model.id, 'budget_refused');
      const { resetsAt, limitMicroCents, spentMicroCents } = hold.status;
      const LimitError = hold.refusedBy === 'workspace' ? WorkspaceLimitError : UserLimitError;
      throw new LimitError(resetsAt, limitMicroCents ?? 0n, spentMicroCents);
    }

    let settled = false;
    const settle = (usage: TokenUsage, outcome = 'answered', cost = costOf(model, usage)): bigint => {
      if (settled) return cost;
      settled = true;
      countRequest(schema, model.id, outcome);
      countTokens(model.id, usage);
      if (cost > 0n) gatewayCost.add({ model: model.id }, Number(cost) / 100_000_000);
      this.ledger.settle(
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
        hold.memberHeld ? worst : 0n,
        hold.workspaceHeld ? worst : 0n,
      );
      return cost;
    };
    const caller: Caller = { left: false };
    response.on('close', () => {
      if (response.writableFinished) return;
      caller.left = true;
      caller.call?.abort();
    });
    const streamUsage = new StreamUsage(schema, inputEstimate);
    try {
      const before = performance.now() - started;
      gatewayAddedSeconds.observe({ schema }, before / 1000);
      const answer = await this.send(upstream, payloadText, request, caller);
      const answeredAt = performance.now();
      /** The gateway's own time: before the call went out, and since the provider's answer began. */
      const gatewayMs = () => (before + performance.now() - answeredAt).toFixed(2);
      if (answer.statusCode >= 500) {
        await answer.dump();
        settle(NO_USAGE, 'upstream_error');
        throw new UpstreamError(`The provider answered ${answer.statusCode}`, answer.statusCode);
      }
      const headers = answer.headers;
      if (answer.statusCode >= 400 || !parsed.stream) {
        const text = await answer.text();
        let json: Json | undefined;
        try {
          json = JSON.parse(text) as Json;
        } catch {}
        if (answer.statusCode >= 400 || typeof json !== 'object' || json === null || Array.isArray(json)) {
          // Not an answer of the API (an error, or not a JSON object): passed on as it came, billed nothing.
          headers['x-outpost-gateway-ms'] = gatewayMs();
          writeWhole(response, answer.statusCode, headers, text);
          settle(NO_USAGE, 'upstream_refused');
          return;
        }
        // Metered after the answer has left: the client need not wait for the books.
        const usage = usageOfAnswer(schema, json);
        const cost = costOf(model, usage);
        headers['content-type'] = 'application/json; charset=utf-8';
        const whole = withCost(text, json, microCentsToUsd(cost));
        headers['x-outpost-gateway-ms'] = gatewayMs();
        writeWhole(response, answer.statusCode, headers, whole);
        settle(usage, 'answered', cost);
        return;
      }
      headers['cache-control'] = 'no-cache';
      headers.connection = 'keep-alive';
      headers['x-outpost-gateway-ms'] = gatewayMs();
      writeHead(response, answer.statusCode, headers);
      await answer.pipe(response, (chunk) => streamUsage.push(chunk));
      response.end();
      settle(streamUsage.result());
    } catch (error) {
      // A client that left mid-stream, or a provider that failed: bill what was produced, then answer (if still possible).
      settle(
        streamUsage.result().output > 0 ? streamUsage.result() : NO_USAGE,
        caller.left ? 'client_left' : 'failed',
      );
      if (caller.left) return;
      if (response.headersSent) {
        response.destroy();
        return;
      }
      if (error instanceof Error && 'status' in error) throw error;
      throw new UpstreamError(
        `The provider could not be reached (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`,
      );
    }
  }

  async onApplicationShutdown(): Promise<void> {
    await this.agent.destroy(); // the HTTP server is closed: no call of a client is still in flight
  }

  /**
   * The call to the provider, resolved at its status line; a 429 or 529 is tried again after a pause while the
   * client is still there (nothing has been sent to it yet).
   */
  private async send(
    upstream: UpstreamTarget,
    body: string,
    request: PlainRequest,
    caller: Caller,
  ): Promise<ProviderCall> {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (upstream.credentialHeader) headers[upstream.credentialHeader] = upstream.credential!;
    else headers.authorization = `Bearer ${upstream.credential}`;
    if (upstream.schema === 'anthropic') {
      headers['anthropic-version'] = String(request.headers['anthropic-version'] ?? '2023-06-01');
      if (request.headers['anthropic-beta'])
        headers['anthropic-beta'] = String(request.headers['anthropic-beta']);
    }
    const { origin, path } = splitBaseUrl(upstream.baseUrl);
    const options = {
      origin,
      path: `${path}${SCHEMA_PATHS[upstream.schema]}`,
      method: 'POST' as const,
      headers,
      body,
    };
    for (let attempt = 0; ; attempt++) {
      if (caller.left) throw new Error('The client left');
      const call = (caller.call = new ProviderCall());
      this.agent.dispatch(options, call);
      await call.answered;
      const retry = (call.statusCode === 429 || call.statusCode === 529) && attempt < RETRY_DELAYS_MS.length;
      if (!retry) return call;
      await call.dump();
      await new Promise((resolve) => setTimeout(resolve, RETRY_DELAYS_MS[attempt]));
    }
  }
}
