import { waitAtMost } from '@/common/deadline';
import { TaggedError } from '@/common/errors';
import { PlainRequest, requestPath } from '@/common/http/http';
import type { RequestLog, RequestLogInput } from '../budgets/request-log';
import type { UsageLedger } from '../budgets/usage-ledger';
import type { ConsolePrincipal } from '../console-access/console-principal';
import { NO_USAGE, type TokenUsage } from './usage';

/** The log's outcome of a call refused with a status. */
const OUTCOMES: Record<number, string> = {
  400: 'invalid',
  402: 'budget_refused',
  403: 'policy_refused',
  404: 'not_found',
  429: 'rate_limited',
  502: 'upstream_error',
  508: 'loop',
};

/** The record of a call that failed with `error` (a `TaggedError`'s status, else 502). */
export function refusedWith(record: CallRecord, error: unknown): void {
  record.status = error instanceof TaggedError ? error.status : 502;
  record.outcome = OUTCOMES[record.status] ?? 'failed';
}

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

/** The record of a call just begun: failed until it ends otherwise. */
export function newCallRecord(): CallRecord {
  return { servedBy: null, status: 0, outcome: 'failed', usage: NO_USAGE, cost: 0n, ttfbMs: null };
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

/**
 * How long a call that held part of a budget waits for its settlement's and its log row's writes before its answer
 * ends: a database that is slow or locked delays the answer this much at most (both are in the journals already).
 */
export const SETTLE_WAIT_MS = 1_000;

/**
 * Resolves once a settled and logged call's usage and log row are in their journals (this turn of the event loop);
 * a call that held part of a budget also waits for their write to the database (`SETTLE_WAIT_MS` at most), so its
 * hold is given back and its spend counted on every node before its caller can send the next call.
 */
export async function writtenDown(
  ledger: UsageLedger,
  requestLog: RequestLog,
  budgeted: boolean,
): Promise<void> {
  await Promise.all([
    ledger.journaled(),
    requestLog.journaled(),
    budgeted ? waitAtMost(Promise.all([ledger.flush(), requestLog.flush()]), SETTLE_WAIT_MS) : undefined,
  ]);
}
