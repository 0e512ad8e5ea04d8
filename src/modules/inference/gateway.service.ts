import { Inject, Injectable, OnApplicationShutdown } from '@nestjs/common';
import { Agent } from 'undici';
import type { ServerResponse } from 'node:http';
import { PlainRequest } from '../../common/http/http';
import { writeHead, writeWhole } from '../../common/http/response-head';
import { BudgetsService } from '../budgets/budgets.service';
import { ConsolePrincipal } from '../keys/access/console-principal';
import { UsageLedger } from '../budgets/usage-ledger.service';
import { WorkspacePolicies } from '../workspace-config/workspace-policies.service';
import { CatalogueModel, gatewayConfig, GatewayConfig, UpstreamSchema } from './gateway.config';
import {
  GatewayLoopError,
  InvalidInferenceRequestError,
  microCentsToUsd,
  ModelError,
  UpstreamError,
  UserLimitError,
  WorkspaceLimitError,
} from './gateway.errors';
import { parseInferenceRequest, SCHEMA_PATHS } from './inference-request';
import { GatewayTargets, UpstreamTarget } from './gateway-targets.service';
import { ProviderCall, splitBaseUrl } from './provider-call';
import { providerRequest, withOutputLimit } from './provider-request';
import { CallMeter } from './call-meter';
import { UsageChunkFilter } from './usage-chunk-filter';
import { OutboundPolicy } from '../../common/net/outbound-policy';
import { utcMonth } from '../budgets/money';
import { randomBytes } from 'node:crypto';
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

/** A call checked and held, ready to go to its provider. */
interface Admitted {
  schema: UpstreamSchema;
  stream: boolean;
  upstream: UpstreamTarget;
  payload: string;
  inputEstimate: number;
  meter: CallMeter;
  /** The gateway asked the stream for usage the caller did not ask for. */
  usageAdded: boolean;
}

/** The hops a model call has made through Outpost gateways, each adding its own id. */
const VIA = 'x-outpost-via';
const MAX_HOPS = 5;

/**
 * One gateway request: the caller's model must be in the catalogue (or the connection) and allowed by the
 * workspace's policies; its worst-case cost is held against the member's monthly budget (one atomic
 * statement); the request goes to the provider (streams pass through as they come; a client that leaves aborts
 * the upstream call); the real usage settles the hold and is recorded in the next batch.
 */
@Injectable()
export class GatewayService implements OnApplicationShutdown {
  /** The connections to the operator's providers, kept alive between calls. */
  private readonly agent = new Agent();
  /** The connections to workspaces' own base URLs: each dial checked against the outbound policy. */
  private readonly guardedAgent: Agent;
  /** This process in `x-outpost-via`, so a call that comes back to it is refused. */
  private readonly nodeId = randomBytes(6).toString('hex');

  constructor(
    @Inject(gatewayConfig.KEY) private readonly config: GatewayConfig,
    private readonly budgets: BudgetsService,
    private readonly ledger: UsageLedger,
    private readonly policies: WorkspacePolicies,
    private readonly targets: GatewayTargets,
    outbound: OutboundPolicy,
  ) {
    this.guardedAgent = new Agent({ connect: outbound.connector() });
  }

  /**
   * Answers one model call on `response`. A failure before the answer began is thrown, for the caller to answer in
   * the route's error format.
   */
  async handle(call: ModelCall, response: ServerResponse): Promise<void> {
    const started = performance.now();
    this.refuseLoop(call.request);
    const admitted = await this.admit(call);
    await this.forward(admitted, call, response, started);
  }

  /** A call that already passed through this process comes back only through a loop: refused before any work. */
  private refuseLoop(request: PlainRequest): void {
    const via = request.headers[VIA];
    if (via === undefined) return;
    const hops = String(via).split(',');
    if (hops.length >= MAX_HOPS || hops.some((hop) => hop.trim() === this.nodeId))
      throw new GatewayLoopError();
  }

  /**
   * The call checked and its worst case held: the model exists and the workspace's policies allow it, the
   * provider has a credential, and the caller's budgets can pay for the input and every output token the call may
   * produce. A call without an output limit gets one while a budget applies (the least of the model's, the
   * operator's default and what the budget affords), written into the provider's request, so its spend can
   * never pass its hold.
   */
  private async admit(call: ModelCall): Promise<Admitted> {
    const { schema, body, principal } = call;
    const parsed = parseInferenceRequest(body, schema);
    const upstream = await (
      call.target ?? ((id: string) => this.targets.forRoute(principal.workspaceId!, id, schema))
    )(parsed.model);
    const { model } = upstream;
    if (parsed.maxTokens !== undefined && parsed.maxTokens > model.maxOutput)
      throw new InvalidInferenceRequestError(
        parsed.limitField,
        `must be at most ${model.maxOutput}, the most "${model.id}" produces`,
      );
    const workspaceId = principal.workspaceId!;
    if (!(await this.policies.allows(workspaceId, upstream.provider, model.id))) {
      countRequest(schema, model.id, 'policy_refused');
      throw new ModelError(model.id);
    }
    if (!upstream.credential)
      throw new UpstreamError(`The ${upstream.label} has no credential on this gateway`);
    let payload = providerRequest(schema, body as Json, call.text, model.upstreamId, parsed.stream);
    const inputEstimate = Math.ceil(payload.length / 4);
    const memberId = principal.serviceAccountId ?? principal.userId!;
    let outputTokens = parsed.maxTokens ?? model.maxOutput;
    if (parsed.maxTokens === undefined && (await this.budgets.limited(workspaceId, memberId))) {
      outputTokens = await this.allowance(workspaceId, memberId, model, inputEstimate);
      payload = withOutputLimit(payload, schema, upstream.baseUrl, Math.max(outputTokens, 1));
    }
    const worst = costOf(model, { ...NO_USAGE, input: inputEstimate, output: outputTokens });
    const hold = outputTokens > 0 ? await this.budgets.hold(workspaceId, memberId, worst) : undefined;
    if (!hold?.held) {
      countRequest(schema, model.id, 'budget_refused');
      const cap = Math.min(model.maxOutput, this.config.defaultMaxTokens);
      const tokens = outputTokens > 0 ? outputTokens : (parsed.maxTokens ?? cap);
      const most = costOf(model, { ...NO_USAGE, input: inputEstimate, output: tokens });
      throw await this.refusal(workspaceId, memberId, most, tokens);
    }
    const meter = new CallMeter(
      model,
      {
        workspaceId,
        memberId,
        keyId: principal.credential === 'session' ? null : principal.credentialId,
        model: model.id,
      },
      hold.memberHeld ? worst : 0n,
      hold.workspaceHeld ? worst : 0n,
    );
    const usageAdded =
      schema === 'openai-chat' &&
      parsed.stream &&
      (body as { stream_options?: { include_usage?: unknown } }).stream_options?.include_usage !== true;
    return { schema, stream: parsed.stream, upstream, payload, inputEstimate, meter, usageAdded };
  }

  /** Output tokens a call without a limit may produce: the model's, the operator's default, what the budget affords. */
  private async allowance(
    workspaceId: string,
    memberId: string,
    model: CatalogueModel,
    inputTokens: number,
  ): Promise<number> {
    const cap = Math.min(model.maxOutput, this.config.defaultMaxTokens);
    const room = await this.budgets.headroom(workspaceId, memberId);
    if (!room || model.prices.output === 0n) return cap;
    // costOf rounds up: the call costs at most `left` while input × price + output × price ≤ left × 10⁶.
    const spare = room.left * 1_000_000n - BigInt(inputTokens) * model.prices.input;
    if (spare <= 0n) return 0;
    const affordable = spare / model.prices.output;
    return affordable < BigInt(cap) ? Number(affordable) : cap;
  }

  /** The budget refusal, saying what the call could cost and what the tighter budget has left. */
  private async refusal(workspaceId: string, memberId: string, worst: bigint, outputTokens: number) {
    const room = (await this.budgets.headroom(workspaceId, memberId)) ?? {
      by: 'member' as const,
      limit: 0n,
      left: 0n,
      resetsAt: utcMonth(Date.now()).next,
    };
    const refusal = { worst, outputTokens, limit: room.limit, left: room.left, resetsAt: room.resetsAt };
    return room.by === 'workspace' ? new WorkspaceLimitError(refusal) : new UserLimitError(refusal);
  }

  /** The admitted call sent on, its answer passed to the client and metered; the hold settled whatever happens. */
  private async forward(
    admitted: Admitted,
    call: ModelCall,
    response: ServerResponse,
    started: number,
  ): Promise<void> {
    const { schema, upstream, meter } = admitted;
    const { model } = upstream;
    let settled = false;
    const settle = (usage: TokenUsage, outcome = 'answered', cost = costOf(model, usage)): void => {
      if (settled) return;
      settled = true;
      countRequest(schema, model.id, outcome);
      countTokens(model.id, usage);
      if (cost > 0n) gatewayCost.add({ model: model.id }, Number(cost) / 100_000_000);
      const last = meter.final(usage, cost);
      this.ledger.settle(last.usage, last.held, last.workspaceHeld);
    };
    const caller: Caller = { left: false };
    response.on('close', () => {
      if (response.writableFinished) return;
      caller.left = true;
      caller.call?.abort();
    });
    const streamUsage = new StreamUsage(schema, admitted.inputEstimate);
    let unwatch: (() => void) | undefined;
    try {
      const before = performance.now() - started;
      gatewayAddedSeconds.observe({ schema }, before / 1000);
      const answer = await this.send(upstream, admitted.payload, call.request, caller);
      const answeredAt = performance.now();
      /** The gateway's own time: before the call went out, and since the provider's answer began. */
      const gatewayMs = () => (before + performance.now() - answeredAt).toFixed(2);
      this.refuseUpstreamStatus(answer, upstream);
      if (answer.statusCode >= 400 || !admitted.stream) {
        const whole = await this.whole(answer, schema, model);
        whole.headers['x-outpost-gateway-ms'] = gatewayMs();
        writeWhole(response, answer.statusCode, whole.headers, whole.text);
        if (whole.usage) settle(whole.usage, 'answered', whole.cost);
        else settle(NO_USAGE, 'upstream_refused');
        return;
      }
      const headers = answer.headers;
      headers['cache-control'] = 'no-cache';
      headers.connection = 'keep-alive';
      headers['x-outpost-gateway-ms'] = gatewayMs();
      writeHead(response, answer.statusCode, headers);
      unwatch = this.ledger.watch(() => meter.progress(streamUsage.result()));
      // A chat stream whose caller did not ask for usage: the usage event the gateway asked for is not passed on.
      const filter = admitted.usageAdded ? new UsageChunkFilter() : undefined;
      await answer.pipe(
        response,
        (chunk) => streamUsage.push(chunk),
        filter && ((chunk) => filter.pass(chunk)),
      );
      response.end(filter?.rest());
      unwatch();
      settle(streamUsage.result());
    } catch (error) {
      unwatch?.();
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
        `The ${upstream.label} could not be reached (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`,
      );
    }
  }

  /**
   * Answers the caller must not see as they came: a provider failing (5xx), a redirect (never followed: it could
   * point inside the network), and a provider refusing *our* credential (401/403), which is not the caller's to fix
   * and whose text may show part of the key.
   */
  private refuseUpstreamStatus(answer: ProviderCall, upstream: UpstreamTarget): void {
    const status = answer.statusCode;
    if (status < 300 || (status >= 400 && status !== 401 && status !== 403 && status < 500)) return;
    void answer.dump().catch(() => undefined);
    if (status >= 500) throw new UpstreamError(`The provider answered ${status}`, status);
    if (status < 400)
      throw new UpstreamError(
        `The ${upstream.label} answered with a redirect (${status}), which is not followed`,
        status,
      );
    throw new UpstreamError(
      `The ${upstream.label} refused the gateway's credential (${status}); a workspace owner or admin should check its key`,
      status,
    );
  }

  /** A whole answer: an API answer (a JSON object) gets its `cost`; anything else is passed on as it came. */
  private async whole(answer: ProviderCall, schema: UpstreamSchema, model: CatalogueModel) {
    const text = await answer.text();
    const headers = answer.headers;
    let json: Json | undefined;
    try {
      json = JSON.parse(text) as Json;
    } catch {}
    if (answer.statusCode >= 400 || typeof json !== 'object' || json === null || Array.isArray(json))
      return { text, headers, usage: undefined, cost: 0n };
    const usage = usageOfAnswer(schema, json);
    const cost = costOf(model, usage);
    headers['content-type'] = 'application/json; charset=utf-8';
    return { text: withCost(text, json, microCentsToUsd(cost)), headers, usage, cost };
  }

  async onApplicationShutdown(): Promise<void> {
    // The HTTP server is closed: no call of a client is still in flight.
    await Promise.all([this.agent.destroy(), this.guardedAgent.destroy()]);
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
    const via = request.headers[VIA];
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      [VIA]: via === undefined ? this.nodeId : `${String(via)}, ${this.nodeId}`,
    };
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
      const call = (caller.call = new ProviderCall(this.config.maxResponseBytes));
      (upstream.guarded ? this.guardedAgent : this.agent).dispatch(options, call);
      await call.answered;
      const retry = (call.statusCode === 429 || call.statusCode === 529) && attempt < RETRY_DELAYS_MS.length;
      if (!retry) return call;
      await call.dump();
      await new Promise((resolve) => setTimeout(resolve, RETRY_DELAYS_MS[attempt]));
    }
  }
}
