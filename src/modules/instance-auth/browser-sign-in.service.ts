import { Injectable } from '@nestjs/common';
import { UnauthorizedError } from '@/common/errors';
import { FailedAttemptsLimiter } from './failed-attempts.limiter';
import { ServerPasswordService } from './server-password.service';
import { SessionTokensService } from './session-tokens.service';

/** The password typed into the web app's sign-in form becomes a session token, as a redeemed pairing link does. */
@Injectable()
export class BrowserSignInService {
  constructor(
    private readonly password: ServerPasswordService,
    private readonly tokens: SessionTokensService,
    private readonly limiter: FailedAttemptsLimiter,
  ) {}

  get sessionTtlSeconds(): number {
    return this.tokens.ttlSeconds;
  }

  /** A new session token for the server password; a wrong one counts as a failed attempt of `address`. */
  async signIn(password: string, username: string | undefined, address: string): Promise<string> {
    await this.limiter.check(address);
    if (!this.password.accepts(username ?? this.password.username, password).password) {
      await this.limiter.fail(address);
      throw new UnauthorizedError('Wrong password');
    }
    return this.tokens.issue();
  }

  /** Signing out ends the session for good: the cookie's token is revoked, not only forgotten by the browser. */
  async signOut(token: string | undefined): Promise<void> {
    if (token) await this.tokens.revoke(token);
  }
}
