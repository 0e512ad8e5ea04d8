import { HttpReply } from './http';

/** The raw (still encoded) value of cookie `name` in a `Cookie` header, if it is there. */
export function cookieValue(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

export interface CookieOptions {
  httpOnly?: boolean;
  sameSite?: 'Lax' | 'Strict';
  secure?: boolean;
  path?: string;
  /** Seconds; 0 deletes the cookie. */
  maxAge?: number;
}

/** Adds a `Set-Cookie` header (Fastify keeps each cookie of a response as its own header line). */
export function setCookie(reply: HttpReply, name: string, value: string, options: CookieOptions): void {
  const parts = [`${name}=${encodeURIComponent(value)}`];
  if (options.maxAge !== undefined) {
    const seconds = Math.max(0, Math.floor(options.maxAge));
    parts.push(`Max-Age=${seconds}`, `Expires=${new Date(Date.now() + seconds * 1000).toUTCString()}`);
  }
  if (options.path) parts.push(`Path=${options.path}`);
  if (options.httpOnly) parts.push('HttpOnly');
  if (options.secure) parts.push('Secure');
  if (options.sameSite) parts.push(`SameSite=${options.sameSite}`);
  void reply.header('set-cookie', parts.join('; '));
}

export function clearCookie(reply: HttpReply, name: string, options: CookieOptions): void {
  setCookie(reply, name, '', { ...options, maxAge: 0 });
}
