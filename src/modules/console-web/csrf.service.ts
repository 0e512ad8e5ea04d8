import { Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { SecretHasher } from '../keys/secret-hasher.service';

export const CSRF_COOKIE = 'outpost_csrf';

function readCookie(request: Request, name: string): string | undefined {
  for (const part of (request.headers.cookie ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) {
      const value = part.slice(eq + 1).trim();
      return /^[A-Za-z0-9_-]{20,100}$/.test(value) ? value : undefined;
    }
  }
  return undefined;
}

/**
 * CSRF tokens of the pages' forms: a random cookie (HttpOnly, scoped to /console) and, in every form, a keyed
 * hash of it. Another site can make the browser send the cookie but cannot read the page to learn the token.
 */
@Injectable()
export class CsrfService {
  constructor(private readonly hasher: SecretHasher) {}

  /** The token for this browser's forms; sets the cookie when it has none yet. */
  token(request: Request, response: Response): string {
    let value = readCookie(request, CSRF_COOKIE);
    if (!value) {
      value = randomBytes(24).toString('base64url');
      response.cookie(CSRF_COOKIE, value, {
        httpOnly: true,
        sameSite: 'lax',
        secure: request.secure,
        path: '/console',
      });
      // Later reads in this request (a re-rendered form) use the same value.
      request.headers.cookie = `${request.headers.cookie ? `${request.headers.cookie}; ` : ''}${CSRF_COOKIE}=${value}`;
    }
    return this.hasher.hash(`csrf:${value}`);
  }

  /** Whether a posted form carries the token of this browser's cookie. */
  valid(request: Request, posted: unknown): boolean {
    const value = readCookie(request, CSRF_COOKIE);
    if (!value || typeof posted !== 'string') return false;
    const expected = Buffer.from(this.hasher.hash(`csrf:${value}`));
    const given = Buffer.from(posted);
    return expected.length === given.length && timingSafeEqual(expected, given);
  }
}
