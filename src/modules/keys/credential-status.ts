import { InvalidRequestError } from '@/common/errors';

export type CredentialStatus = 'active' | 'expired' | 'revoked';

export function statusOf(
  credential: { revokedAt: Date | null; expiresAt: Date | null },
  now: number,
): CredentialStatus {
  if (credential.revokedAt) return 'revoked';
  if (credential.expiresAt && credential.expiresAt.getTime() <= now) return 'expired';
  return 'active';
}

/** An optional expiry from a request: it must lie in the future. */
export function parseExpiry(value: string | undefined, now: number): Date | null {
  if (value === undefined) return null;
  const date = new Date(value);
  if (Number.isNaN(date.getTime()) || date.getTime() <= now) {
    throw new InvalidRequestError('expires_at: must be a time in the future', 'expires_at');
  }
  return date;
}

export const iso = (date: Date | null): string | null => (date ? date.toISOString() : null);
