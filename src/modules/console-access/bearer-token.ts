import { PlainRequest } from '@/common/http/http';
import { ResolvedCredential } from './console-principal';

/** Finds the credential a bearer token stands for, or undefined when it is unknown, expired or revoked. */
export type BearerLookup = (token: string, request: PlainRequest) => Promise<ResolvedCredential | undefined>;

/**
 * The token of `Authorization: Bearer <token>` (RFC 6750 §2.1: the scheme in any case, one space, no space in the
 * token), or undefined for any other header. A request that also carries `access_token` in its query or body
 * presents more than one token (§2: a client uses one method) and has none.
 */
export function bearerToken(request: PlainRequest, authorization: string): string | undefined {
  const token = /^Bearer (\S+)$/i.exec(authorization)?.[1];
  if (token === undefined) return undefined;
  const elsewhere = (value: unknown) =>
    typeof value === 'object' && value !== null && Boolean((value as Record<string, unknown>).access_token);
  const { query, body } = request as PlainRequest & { query?: unknown; body?: unknown };
  return elsewhere(query) || elsewhere(body) ? undefined : token;
}
