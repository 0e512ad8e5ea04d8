import { hash, timingSafeEqual } from 'node:crypto';
import { CookieOptions, cookieValue } from '@/common/http/cookies';
import { HttpRequest, isSecure } from '@/common/http/http';

/**
 * A secret to compare presented strings against in constant time, whatever their length: both sides are
 * compared as SHA-256 digests, and the secret's digest is computed once.
 */
export class SecretMatcher {
  private readonly digest: Buffer;

  constructor(secret: string) {
    this.digest = sha256(secret);
  }

  matches(presented: string): boolean {
    return timingSafeEqual(sha256(presented), this.digest);
  }
}

/** One-shot SHA-256: no Hash object per call (two calls on every request with a password). */
function sha256(text: string): Buffer {
  return hash('sha256', text, 'buffer') as unknown as Buffer;
}

/** `user:password` from `Authorization: Basic …` or `?auth_token=` (for EventSource). */
export function presentedCredentials(request: HttpRequest): { user: string; pass: string } | undefined {
  const header = request.headers.authorization;
  let encoded: string | undefined;
  if (header?.toLowerCase().startsWith('basic ')) encoded = header.slice(6).trim();
  // A `+` of base64 sent unencoded in a query arrives as a space; base64 itself never has one.
  else if (typeof query(request).auth_token === 'string')
    encoded = (query(request).auth_token as string).replace(/ /g, '+');
  if (!encoded) return undefined;
  const decoded = Buffer.from(encoded, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return undefined;
  return { user: decoded.slice(0, colon), pass: decoded.slice(colon + 1) };
}

function query(request: HttpRequest): Record<string, unknown> {
  return (request.query ?? {}) as Record<string, unknown>;
}

/**
 * `auth_token` is a credential, not a parameter of the route: once read, the query DTOs must not see it
 * (they refuse unknown members).
 */
export function removeAuthToken(request: HttpRequest): void {
  if (!('auth_token' in query(request))) return;
  const { auth_token: _removed, ...rest } = query(request);
  request.query = rest;
}

/** One cookie per host and port, so two local servers on different ports do not overwrite each other's. */
export function sessionCookieName(host: string | undefined): string {
  return `outpost_session_${(host ?? 'local').toLowerCase().replace(/[^a-z0-9]/g, '_')}`;
}

export function sessionCookieOptions(request: HttpRequest, maxAgeSeconds: number): CookieOptions {
  return { httpOnly: true, sameSite: 'Lax', path: '/', maxAge: maxAgeSeconds, secure: isSecure(request) };
}

/** True when the request has no `Origin`, or one whose host is the `Host` it was sent to. */
export function isSameOrigin(request: HttpRequest): boolean {
  const origin = request.headers.origin;
  if (origin === undefined) return true;
  try {
    return new URL(origin).host === request.headers.host;
  } catch {
    return false;
  }
}

/** The pairing session cookie, but only from a same-origin request (a cross-site page cannot ride on it). */
export function sessionCookie(request: HttpRequest): string | undefined {
  if (!isSameOrigin(request)) return undefined;
  try {
    const value = cookieValue(request.headers.cookie, sessionCookieName(request.headers.host));
    return value === undefined ? undefined : decodeURIComponent(value);
  } catch {
    return undefined;
  }
}
