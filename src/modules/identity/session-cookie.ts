import type { Request, Response } from 'express';
import { createHash } from 'node:crypto';

/** The console sign-in cookie (the name the API document announces). */
export const SESSION_COOKIE = 'outpost_console';

/** Sessions, invitation tokens and other high-entropy random values are stored as their SHA-256. */
export function sha256(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

export function readSessionCookie(request: Request): string | undefined {
  const header = request.headers.cookie;
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === SESSION_COOKIE) {
      const value = part.slice(eq + 1).trim();
      return /^[A-Za-z0-9_-]{20,100}$/.test(value) ? value : undefined;
    }
  }
  return undefined;
}

/** HttpOnly, SameSite=Lax, Secure over https, scoped to the console's paths. */
export function setSessionCookie(
  request: Request,
  response: Response,
  value: string,
  maxAgeMs: number,
): void {
  response.cookie(SESSION_COOKIE, value, {
    httpOnly: true,
    sameSite: 'lax',
    secure: request.secure,
    path: '/console',
    maxAge: maxAgeMs,
  });
}

export function clearSessionCookie(request: Request, response: Response): void {
  response.clearCookie(SESSION_COOKIE, {
    httpOnly: true,
    sameSite: 'lax',
    secure: request.secure,
    path: '/console',
  });
}
