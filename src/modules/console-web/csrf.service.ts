import { Injectable } from '@nestjs/common';
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { readCookie } from '../console-access/session-cookie';
import { SecretHasher } from '../console-access/secret-hasher';
import { setCookie } from '@/common/http/cookies';
import { HttpReply, HttpRequest, isSecure } from '@/common/http/http';

export const CSRF_COOKIE = 'outpost_csrf';

/**
 * CSRF tokens of the pages' forms: a random cookie (HttpOnly, scoped to /console) and, in every form, a keyed
 * hash of it. Another site can make the browser send the cookie but cannot read the page to learn the token.
 */
@Injectable()
export class CsrfService {
  constructor(private readonly hasher: SecretHasher) {}

  /** The token for this browser's forms; sets the cookie when it has none yet. */
  token(request: HttpRequest, response: HttpReply): string {
    let value = readCookie(request, CSRF_COOKIE);
    if (!value) {
      value = randomBytes(24).toString('base64url');
      setCookie(response, CSRF_COOKIE, value, {
        httpOnly: true,
        sameSite: 'Lax',
        secure: isSecure(request),
        path: '/console',
      });
      // Later reads in this request (a re-rendered form) use the same value.
      request.headers.cookie = `${request.headers.cookie ? `${request.headers.cookie}; ` : ''}${CSRF_COOKIE}=${value}`;
    }
    return this.hasher.hash(`csrf:${value}`);
  }

  /** Whether a posted form carries the token of this browser's cookie. */
  valid(request: HttpRequest, posted: unknown): boolean {
    const value = readCookie(request, CSRF_COOKIE);
    if (!value || typeof posted !== 'string') return false;
    const expected = Buffer.from(this.hasher.hash(`csrf:${value}`));
    const given = Buffer.from(posted);
    return expected.length === given.length && timingSafeEqual(expected, given);
  }
}
