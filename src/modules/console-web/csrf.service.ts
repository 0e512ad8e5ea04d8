import { Injectable } from '@nestjs/common';
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { readCookie } from '../console-access/session-cookie';
import { SecretHasher } from '../console-access/secret-hasher';
import { setCookie } from '@/common/http/cookies';
import { HttpReply, HttpRequest, isSecure } from '@/common/http/http';
import { html, page } from '@/common/http/html';

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

  /** Whether a posted form carries this browser's token; otherwise answers with a 403 page saying so. */
  checkForm(request: HttpRequest, response: HttpReply, form: Record<string, unknown>): boolean {
    if (this.valid(request, form.csrf)) return true;
    // A browser without the cookie gets one now, so reloading the form works.
    this.token(request, response);
    const body = page(
      { title: 'Form expired', error: 'This form is out of date. Go back, reload the page and try again.' },
      html`<p><a href="/console">Back to the console</a></p>`,
    );
    response.status(403).header('Cache-Control', 'no-store').type('text/html; charset=utf-8').send(body);
    return false;
  }
}
