import { PlainRequest, requestPath } from '@/common/http/http';
import type { RequestLogInput } from '../budgets/request-log';
import type { ConsolePrincipal } from '../console-access/console-principal';
import type { TokenUsage } from './usage';

/** How a call ended, for the per-request log. */
export interface CallRecord {
  servedBy: string | null;
  status: number;
  outcome: string;
  usage: TokenUsage;
  cost: bigint;
  ttfbMs: number | null;
  /** The call is in the request log already (a call answered logs itself before the answer's end). */
  logged?: boolean;
  /** A stream's in-flight row in the request log (RequestLog.startStream), replaced by its own row at its end. */
  streamRow?: string;
}

/** The call's request log row as it stands (`started`: `performance.now()` when the call began). */
export function requestLogEntry(
  call: { principal: ConsolePrincipal; request: PlainRequest; body: unknown },
  record: CallRecord,
  started: number,
): RequestLogInput {
  const { principal, request, body } = call;
  const model = (body as { model?: unknown } | null)?.model;
  return {
    workspaceId: principal.workspaceId!,
    memberId: principal.serviceAccountId ?? principal.userId!,
    keyId: principal.credential === 'session' ? null : principal.credentialId,
    requestId: request.id,
    // The route's pattern (a connection's as `custom/:connection/…`, on the SDKs' `/v1` path too).
    route: (request.routeOptions?.url ?? requestPath(request)).slice(0, 100),
    model: typeof model === 'string' ? model.slice(0, 200) : '',
    servedBy: record.servedBy,
    status: record.status,
    outcome: record.outcome,
    inputTokens: record.usage.input + record.usage.cacheRead + record.usage.cacheWrite,
    outputTokens: record.usage.output,
    costMicroCents: record.cost,
    durationMs: Math.round(performance.now() - started),
    ttfbMs: record.ttfbMs,
  };
}
