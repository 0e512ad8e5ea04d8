/** One metered request, as the inference gateway reports it. */
export interface UsageInput {
  workspaceId: string;
  /** The person (`usr_…`) or service account (`sa_…`) the request is billed to. */
  memberId: string;
  keyId?: string | null;
  model: string;
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens?: number;
  cacheWriteTokens?: number;
  costMicroCents: bigint;
}

/**
 * A request's usage as nine values, in the order the usage row's columns take them (workspace, member, key, model,
 * input, output, cache read and cache write tokens, cost as text): a statement's parameters, a journal line's fields.
 */
export function usageValues(usage: UsageInput): unknown[] {
  return [
    usage.workspaceId,
    usage.memberId,
    usage.keyId ?? null,
    usage.model,
    usage.inputTokens,
    usage.outputTokens,
    usage.cacheReadTokens ?? 0,
    usage.cacheWriteTokens ?? 0,
    usage.costMicroCents.toString(),
  ];
}
