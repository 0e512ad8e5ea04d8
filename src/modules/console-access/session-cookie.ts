import { clearCookie, cookieValue, setCookie } from '@/common/http/cookies';
import { HttpReply, HttpRequest, isSecure } from '@/common/http/http';

/** The console sign-in cookie (the name the API document announces). */
export const SESSION_COOKIE = 'outpost_console';

/** A cookie of the request whose value looks like our random values (base64url, 20–100 characters). */
export function readCookie(request: HttpRequest, name: string): string | undefined {
  const value = cookieValue(request.headers.cookie, name);
  return value !== undefined && /^[A-Za-z0-9_-]{20,100}$/.test(value) ? value : undefined;
}

export function readSessionCookie(request: HttpRequest): string | undefined {
  return readCookie(request, SESSION_COOKIE);
}

/** HttpOnly, SameSite=Lax, Secure over https, scoped to the console's paths. */
export function setSessionCookie(
  request: HttpRequest,
  reply: HttpReply,
  value: string,
  maxAgeMs: number,
): void {
  setCookie(reply, SESSION_COOKIE, value, {
    httpOnly: true,
    sameSite: 'Lax',
    secure: isSecure(request),
    path: '/console',
    maxAge: Math.floor(maxAgeMs / 1000),
  });
}

export function clearSessionCookie(request: HttpRequest, reply: HttpReply): void {
  clearCookie(reply, SESSION_COOKIE, {
    httpOnly: true,
    sameSite: 'Lax',
    secure: isSecure(request),
    path: '/console',
  });
}
