import { Inject, Injectable, OnApplicationShutdown } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { Agent } from 'undici';
import { PlainRequest } from '@/common/http/http';
import { OutboundPolicy } from '@/common/net/outbound-policy';
import { DeploymentHealth } from './deployment-health';
import { gatewayConfig, GatewayConfig } from './gateway.config';
import { GatewayLoopError } from './gateway.errors';
import type { Plan, UpstreamTarget } from './gateway-targets';
import { SCHEMA_PATHS } from './inference-request';
import { ProviderCall, splitBaseUrl } from './provider-call';

/** Waits before retrying a provider's 429/529 on the same key, only while nothing was sent to the client yet. */
const RETRY_DELAYS_MS = [250, 750];
/** The hops a model call has made through Outpost gateways, each adding its own id. */
const VIA = 'x-outpost-via';
const MAX_HOPS = 5;
/** A provider telling the caller the conversation does not fit the model: the route's fallbacks may take it. */
const CONTEXT_ERROR =
  /context_length_exceeded|context[ _-]window|maximum context length|prompt is too long|too many tokens|reduce the length/i;

/** The client of one model call: whether it left, and the provider call to cancel when it does. */
export interface Caller {
  left: boolean;
  call?: ProviderCall;
}

/** The answer that will be the caller's, the upstream that gives it, and the end of its count in flight. */
export interface Sent {
  answer: ProviderCall;
  upstream: UpstreamTarget;
  done: () => void;
}

/**
 * Sends a call to its upstreams: the plan's targets in order until one answers (a deployment that fails, times out
 * or is rate-limited sits out and the next is tried; a conversation too long for the deployments goes to the
 * fallbacks), never after the first byte reached the caller. Catalogue providers are trusted; a workspace's own base
 * URLs are dialled only through the outbound policy. Each call carries `x-outpost-via`, so one that comes back to
 * this process is refused.
 */
@Injectable()
export class UpstreamSender implements OnApplicationShutdown {
  /** The connections to the operator's providers, kept alive between calls. */
  private readonly agent = new Agent();
  /** The connections to workspaces' own base URLs: each dial checked against the outbound policy. */
  private readonly guardedAgent: Agent;
  private readonly nodeId = randomBytes(6).toString('hex');

  constructor(
    @Inject(gatewayConfig.KEY) private readonly config: GatewayConfig,
    private readonly health: DeploymentHealth,
    outbound: OutboundPolicy,
  ) {
    this.guardedAgent = new Agent({ connect: outbound.connector() });
  }

  /** A call that already passed through this process comes back only through a loop: refused before any work. */
  refuseLoop(request: PlainRequest): void {
    const via = request.headers[VIA];
    if (via === undefined) return;
    const hops = String(via).split(',');
    if (hops.length >= MAX_HOPS || hops.some((hop) => hop.trim() === this.nodeId))
      throw new GatewayLoopError();
  }

  /** The first answer of the plan worth passing on; the last target's failure is thrown, or its answer returned. */
  async first(
    plan: Plan,
    payloadFor: (upstream: UpstreamTarget) => string,
    request: PlainRequest,
    caller: Caller,
  ): Promise<Sent> {
    for (let i = 0; ; i++) {
      const upstream = plan.targets[i];
      const last = i === plan.targets.length - 1;
      const done = this.health.begin(upstream.model.id);
      let answer: ProviderCall;
      try {
        answer = await this.send(upstream, payloadFor(upstream), request, caller);
      } catch (error) {
        done();
        if (last || caller.left) throw error;
        this.sitOut(upstream);
        continue;
      }
      const status = answer.statusCode;
      if (!last && (status >= 500 || status === 429)) {
        done();
        await answer.dump().catch(() => undefined);
        this.sitOut(upstream);
        continue;
      }
      if (!last && status === 400 && i < plan.fallbackAt && plan.fallbackAt < plan.targets.length) {
        if (CONTEXT_ERROR.test(await answer.text().catch(() => ''))) {
          done();
          i = plan.fallbackAt - 1;
          continue;
        }
      }
      return { answer, upstream, done };
    }
  }

  async onApplicationShutdown(): Promise<void> {
    // The HTTP server is closed: no call of a client is still in flight.
    await Promise.all([this.agent.destroy(), this.guardedAgent.destroy()]);
  }

  private sitOut(upstream: UpstreamTarget): void {
    if (upstream.cooldownMs) this.health.cool(upstream.model.id, upstream.cooldownMs);
  }

  /**
   * The call to one upstream, resolved at its status line. A 429 or 529 is tried again while the client is still
   * there (nothing has been sent to it yet): at once with the provider's next key when it has several (the limited
   * one sits out), else after a pause.
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
    if (upstream.schema.startsWith('anthropic')) {
      headers['anthropic-version'] = String(request.headers['anthropic-version'] ?? '2023-06-01');
      if (request.headers['anthropic-beta'])
        headers['anthropic-beta'] = String(request.headers['anthropic-beta']);
    }
    const { origin, path } = splitBaseUrl(upstream.baseUrl);
    const keys = upstream.credentials;
    for (let attempt = 0, delays = 0; ; attempt++) {
      if (caller.left) throw new Error('The client left');
      const key = keys[attempt % keys.length];
      if (upstream.credentialHeader) headers[upstream.credentialHeader] = key;
      else headers.authorization = `Bearer ${key}`;
      const call = (caller.call = new ProviderCall(this.config.maxResponseBytes));
      (upstream.guarded ? this.guardedAgent : this.agent).dispatch(
        {
          origin,
          path: `${path}${SCHEMA_PATHS[upstream.schema]}`,
          method: 'POST',
          headers,
          body,
          ...(upstream.timeoutMs ? { headersTimeout: upstream.timeoutMs } : {}),
        },
        call,
      );
      await call.answered;
      const limited = call.statusCode === 429 || call.statusCode === 529;
      if (limited && upstream.keyPool && keys.length > 1)
        this.health.coolKey(upstream.keyPool.provider, upstream.keyPool.keys, key);
      const nextKey = limited && keys.length > 1 && attempt + 1 < keys.length;
      if (!limited || (!nextKey && delays >= RETRY_DELAYS_MS.length)) return call;
      await call.dump();
      if (!nextKey) await new Promise((resolve) => setTimeout(resolve, RETRY_DELAYS_MS[delays++]));
    }
  }
}
