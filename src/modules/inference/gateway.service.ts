import { Inject, Injectable } from '@nestjs/common';
import type { ServerResponse } from 'node:http';
import { waitAtMost } from '@/common/deadline';
import { PlainRequest } from '@/common/http/http';
import { writeHead, writeWhole } from '@/common/http/response-head';
import { ConsolePrincipal } from '../console-access/console-principal';
import { UsageLedger } from '../budgets/usage-ledger';
import { WorkspacePolicies } from '../workspace-config/workspace-policies';
import { CatalogueModel, gatewayConfig, GatewayConfig, CallSchema } from './gateway.config';
import { InvalidInferenceRequestError, ModelError, UpstreamError, UserLimitError } from './gateway.errors';
import { parseInferenceRequest } from './inference-request';
import { GatewayTargets, Plan, UpstreamTarget } from './gateway-targets';
import { ProviderCall } from './provider-call';
import { Caller, UpstreamSender } from './upstream-sender';
import { KeyLimits } from './key-limits';
import { RequestLog } from '../budgets/request-log';
import {
  CallRecord,
  newCallRecord,
  refusedWith,
  requestLogEntry,
  SETTLE_WAIT_MS,
  writtenDown,
} from './call-record';
import { providerRequest, withOutputLimit } from './provider-request';
import { CallBudgets } from './call-budgets';
import { CallMeter } from './call-meter';
import { UsageChunkFilter } from './usage-chunk-filter';
import { microCentsToUsd } from '@/common/money';
import { costOf, NO_USAGE, StreamUsage, TokenUsage, usageOfAnswer } from './usage';
import { gatewayAddedSeconds, gatewayCost, gatewayRequests, gatewayTokens } from '@/common/metrics/metrics';

type Json = Record<string, unknown>;

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
function countRequest(schema: CallSchema, model: string, outcome: string): void {
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
  schema: CallSchema;
  body: unknown;
  text?: string;
  principal: ConsolePrincipal;
  request: PlainRequest;
  /** Picks the upstream from the request's model: the catalogue's provider unless given (a workspace connection). */
  target?: (model: string) => UpstreamTarget | Promise<UpstreamTarget>;
}

/** A call checked and held, ready to go to its provider. */
interface Admitted {
  schema: CallSchema;
  stream: boolean;
  /** The upstreams to try, in order. */
  plan: Plan;
  /** The provider's request for one of them (its model id written in). */
  payloadFor: (target: UpstreamTarget) => string;
  inputEstimate: number;
  meter: CallMeter;
  /** The gateway asked the stream for usage the caller did not ask for. */
  usageAdded: boolean;
}

/**
 * One gateway request: the caller's model must be in the catalogue (or the connection) and allowed by the
 * workspace's policies; its worst-case cost is held against the member's monthly budget (one atomic
 * statement); the request goes to the provider (streams pass through as they come; a client that leaves aborts
 * the upstream call); the real usage settles the hold and is recorded in the next batch.
 */
/** The target serving a call (the first until one answers) and what to tell its health when the call ends. */
interface Serving {
  upstream: UpstreamTarget;
  served?: () => void;
}

@Injectable()
export class GatewayService {
  constructor(
    @Inject(gatewayConfig.KEY) private readonly config: GatewayConfig,
    private readonly callBudgets: CallBudgets,
    private readonly ledger: UsageLedger,
    private readonly policies: WorkspacePolicies,
    private readonly targets: GatewayTargets,
    private readonly sender: UpstreamSender,
    private readonly keyLimits: KeyLimits,
    private readonly requestLog: RequestLog,
  ) {}

  /**
   * Answers one model call on `response`. A failure before the answer began is thrown, for the caller to answer in
   * the route's error format.
   */
  async handle(call: ModelCall, response: ServerResponse): Promise<void> {
    const started = performance.now();
    const record = newCallRecord();
    try {
      this.sender.refuseLoop(call.request);
      const admitted = await this.admit(call);
      await this.forward(admitted, call, response, started, record);
    } catch (error) {
      refusedWith(record, error);
      throw error;
    } finally {
      if (!record.logged) this.logCall(call, record, started);
    }
  }

  /**
   * The call in the per-request log (written in the next batch, journaled at the end of this turn of the event
   * loop).
   */
  private logCall(call: ModelCall, record: CallRecord, started: number): void {
    record.logged = true;
    this.requestLog.add(requestLogEntry(call, record, started), record.streamRow);
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
    const workspaceId = principal.workspaceId!;
    const parsed = parseInferenceRequest(body, schema);
    const planned = call.target
      ? { targets: [await call.target(parsed.model)], fallbackAt: 1 }
      : await this.targets.plan(workspaceId, parsed.model, schema);
    const plan = await this.usable(planned, workspaceId, parsed.model, schema);
    /** What the caller named: the model, or the route. */
    const named = planned.targets.length === 1 ? planned.targets[0].model.id : parsed.model;
    await this.keyLimits.admit(principal, [named, parsed.model]);
    const smallest = Math.min(...plan.targets.map((target) => target.model.maxOutput));
    if (parsed.maxTokens !== undefined && parsed.maxTokens > smallest)
      throw new InvalidInferenceRequestError(
        parsed.limitField,
        `must be at most ${smallest}, the most "${named}" produces`,
      );
    // Held at the dearest model that may serve the call.
    const model = plan.targets.reduce((a, b) =>
      b.model.prices.output > a.model.prices.output ? b : a,
    ).model;
    // Made once per upstream model: the hold's estimate and the request sent share it (a 90 KB conversation is
    // scanned and copied once, not twice).
    const payloads = new Map<string, string>();
    const payloadOf = (target: UpstreamTarget) => {
      const id = target.model.upstreamId;
      let payload = payloads.get(id);
      if (payload === undefined) {
        payload = providerRequest(schema, body as Json, call.text, id, parsed.stream);
        payloads.set(id, payload);
      }
      return payload;
    };
    const inputEstimate = Math.ceil(payloadOf(plan.targets[0]).length / 4);
    const held = await this.callBudgets
      .hold(principal, model, smallest, inputEstimate, parsed)
      .catch((error: unknown) => {
        if (error instanceof UserLimitError) countRequest(schema, named, 'budget_refused');
        throw error;
      });
    const meter = new CallMeter(
      plan.targets[0].model,
      {
        workspaceId,
        memberId: principal.serviceAccountId ?? principal.userId!,
        keyId: principal.credential === 'session' ? null : principal.credentialId,
        model: plan.targets[0].model.id,
      },
      held.holds,
    );
    const usageAdded =
      (schema === 'openai-chat' || schema === 'openai-completions') &&
      parsed.stream &&
      (body as { stream_options?: { include_usage?: unknown } }).stream_options?.include_usage !== true;
    return {
      schema,
      stream: parsed.stream,
      plan,
      payloadFor: (target) =>
        held.limit === undefined
          ? payloadOf(target)
          : withOutputLimit(payloadOf(target), schema, target.baseUrl, held.limit),
      inputEstimate,
      meter,
      usageAdded,
    };
  }

  /** The plan's targets the workspace's policies allow and the gateway has a credential for. */
  private async usable(plan: Plan, workspaceId: string, modelId: string, schema: CallSchema): Promise<Plan> {
    const targets: UpstreamTarget[] = [];
    let fallbackAt = 0;
    for (const [index, target] of plan.targets.entries()) {
      if (!(await this.policies.allows(workspaceId, target.provider, target.model.id))) continue;
      targets.push(target);
      if (index < plan.fallbackAt) fallbackAt++;
    }
    if (targets.length === 0) {
      countRequest(schema, modelId, 'policy_refused');
      throw new ModelError(plan.targets.length === 1 ? plan.targets[0].model.id : modelId);
    }
    const keyed = targets.filter((target) => target.credentials.length > 0);
    if (keyed.length === 0)
      throw new UpstreamError(`The ${targets[0].label} has no credential on this gateway`);
    return { targets: keyed, fallbackAt: Math.min(fallbackAt, keyed.length) };
  }

  /** The admitted call sent on, its answer passed to the client and metered; the hold settled whatever happens. */
  private async forward(
    admitted: Admitted,
    call: ModelCall,
    response: ServerResponse,
    started: number,
    record: CallRecord,
  ): Promise<void> {
    const { schema, meter } = admitted;
    const serving: Serving = { upstream: admitted.plan.targets[0] };
    const settle = this.settlement(call, admitted, record, serving);
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
      const sent = await this.sender.first(admitted.plan, admitted.payloadFor, call.request, caller);
      serving.upstream = sent.upstream;
      serving.served = sent.done;
      const { answer, upstream } = sent;
      // Metered at the model that served.
      meter.serve(upstream.model);
      answer.headers['x-outpost-served-by'] = upstream.model.id;
      const answeredAt = performance.now();
      record.status = answer.statusCode;
      record.ttfbMs = Math.round(answeredAt - started);
      /** The gateway's own time: before the call went out, and since the provider's answer began. */
      const gatewayMs = () => (before + performance.now() - answeredAt).toFixed(2);
      this.refuseUpstreamStatus(answer, upstream);
      if (answer.statusCode >= 400 || !admitted.stream) {
        const whole = await this.whole(answer, schema, upstream.model);
        whole.headers['x-outpost-gateway-ms'] = gatewayMs();
        // Settled, logged and journaled before the answer leaves: a process killed after it has it billed and logged.
        if (whole.usage) settle(whole.usage, 'answered', whole.cost);
        else settle(NO_USAGE, 'upstream_refused');
        await this.journaled(call, record, started, admitted.meter);
        writeWhole(response, answer.statusCode, whole.headers, whole.text);
        return;
      }
      const headers = answer.headers;
      headers['cache-control'] = 'no-cache';
      headers['x-outpost-gateway-ms'] = gatewayMs();
      writeHead(response, answer.statusCode, headers);
      record.servedBy = upstream.model.id;
      unwatch = this.watchStream(call, record, started, meter, streamUsage);
      // A chat stream whose caller did not ask for usage: the usage event the gateway asked for is not passed on.
      const filter = admitted.usageAdded ? new UsageChunkFilter() : undefined;
      await answer.pipe(
        response,
        (chunk) => streamUsage.push(chunk),
        filter && ((chunk) => filter.pass(chunk)),
      );
      unwatch();
      settle(streamUsage.result());
      await this.journaled(call, record, started, admitted.meter);
      response.end(filter?.rest());
    } catch (error) {
      unwatch?.();
      // A client that left mid-stream, or a provider that failed: bill what was produced, then answer (if still possible).
      settle(
        streamUsage.result().output > 0 ? streamUsage.result() : NO_USAGE,
        caller.left ? 'client_left' : 'failed',
      );
      if (caller.left) return;
      if (admitted.meter.budgeted) await waitAtMost(this.ledger.flush(), SETTLE_WAIT_MS);
      if (response.headersSent) {
        response.destroy();
        return;
      }
      if (error instanceof Error && 'status' in error) throw error;
      throw new UpstreamError(
        `The ${serving.upstream.label} could not be reached (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`,
      );
    }
  }

  /**
   * The call logged, then resolves once its usage and its log row are in their journals (both written at the end
   * of this turn of the event loop, one write each for every call of the turn): the answer may end then. A call
   * that held part of a budget also waits for the ledger's and the log's writes to the database (one write of each
   * for all calls waiting on it; at most `SETTLE_WAIT_MS`), so its hold is given back and its spend counted, on
   * every node, before its caller can send the next call (a finished call's worst case is never held against the
   * next one), and a node killed with its disk lost (a replaced container) loses none of these calls. An unbudgeted
   * call does not wait for the database (it would cost 5x the throughput, bench/gateway): its row and usage rest on
   * the node's disk for up to 200 ms.
   */
  private async journaled(
    call: ModelCall,
    record: CallRecord,
    started: number,
    meter: CallMeter,
  ): Promise<void> {
    this.logCall(call, record, started);
    await writtenDown(this.ledger, this.requestLog, meter.budgeted);
  }

  /**
   * A stream under way: in the request log as in flight (logged as cut by a live process if this one dies), and
   * what it has produced billed every second, both in step. Returns the function that stops watching.
   */
  private watchStream(
    call: ModelCall,
    record: CallRecord,
    started: number,
    meter: CallMeter,
    streamUsage: StreamUsage,
  ): () => void {
    const streamRow = this.requestLog.startStream(
      requestLogEntry(call, { ...record, outcome: 'streaming' }, started),
    );
    record.streamRow = streamRow;
    return this.ledger.watch(() => {
      const usage = streamUsage.result();
      const part = meter.progress(usage);
      if (part) {
        const input = usage.input + usage.cacheRead + usage.cacheWrite;
        this.requestLog.streamProgress(streamRow, input, usage.output, meter.billedSoFar);
      }
      return part;
    });
  }

  /**
   * A call's settlement, made once whatever happens (a second call does nothing): at the model that served, in
   * the metrics, the key's tokens a minute, the call's log record and the usage ledger.
   */
  private settlement(call: ModelCall, admitted: Admitted, record: CallRecord, serving: Serving) {
    let settled = false;
    return (usage: TokenUsage, outcome = 'answered', cost = costOf(serving.upstream.model, usage)): void => {
      if (settled) return;
      settled = true;
      serving.served?.();
      const { model } = serving.upstream;
      Object.assign(record, { outcome, usage, cost, servedBy: model.id });
      countRequest(admitted.schema, model.id, outcome);
      countTokens(model.id, usage);
      this.keyLimits.record(call.principal, usage.input + usage.output + usage.cacheRead + usage.cacheWrite);
      if (cost > 0n) gatewayCost.add({ model: model.id }, Number(cost) / 100_000_000);
      this.ledger.settle(admitted.meter.final(usage, cost));
    };
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
  private async whole(answer: ProviderCall, schema: CallSchema, model: CatalogueModel) {
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
}
