import { registerJsonApi } from '@/common/http/json-only';
import { Injectable, OnModuleInit } from '@nestjs/common';
import { AuthenticatedRequest, Authenticator, AuthRegistry, Principal } from '@/common/auth';
import { UnauthorizedError } from '@/common/errors';
import { FailedAttemptsLimiter } from './failed-attempts.limiter';
import { presentedCredentials, removeAuthToken, sessionCookie } from './presented-credentials';
import { ServerPasswordService } from './server-password.service';
import { SessionTokensService } from './session-tokens.service';

export const INSTANCE_PREFIXES = ['/api/', '/auth/connect/'];

/**
 * The 401 of a request without good credentials. A page's own script (`fetch`, `EventSource`: `Sec-Fetch-Mode`
 * other than `navigate`) gets no Basic challenge, which would make the browser open its password dialog over the
 * web app's sign-in form.
 */
function unauthorized(request: AuthenticatedRequest): UnauthorizedError {
  const error = new UnauthorizedError();
  const mode = request.headers['sec-fetch-mode'];
  if (mode === undefined || mode === 'navigate') error.headers['WWW-Authenticate'] = 'Basic realm="Outpost"';
  return error;
}

/** The address failed attempts are counted against (the client's, behind a trusted proxy). */
export function clientAddress(request: AuthenticatedRequest): string {
  return request.ip ?? request.socket.remoteAddress ?? 'unknown';
}

/**
 * Instance credentials: Basic (or `?auth_token=`) `<username>:<server password or session token>`, or the
 * session cookie of a paired browser on a same-origin request.
 */
@Injectable()
export class InstanceAuthenticator implements Authenticator, OnModuleInit {
  constructor(
    private readonly password: ServerPasswordService,
    private readonly tokens: SessionTokensService,
    private readonly limiter: FailedAttemptsLimiter,
    private readonly registry: AuthRegistry,
  ) {}

  onModuleInit(): void {
    // Unknown routes under /api/ too: nothing there answers anyone without credentials, not even with 404.
    this.registry.register(INSTANCE_PREFIXES, this, { guardUnknownRoutes: true });
    registerJsonApi('/api/');
  }

  async authenticate(request: AuthenticatedRequest): Promise<Principal> {
    const credentials = presentedCredentials(request);
    removeAuthToken(request);
    const cookie = sessionCookie(request);
    if (!credentials && !cookie) throw unauthorized(request);
    const accepted = credentials && this.password.accepts(credentials.user, credentials.pass);
    // Session tokens and cookies (256 random bits) cannot be guessed: a valid one is never held up by the
    // failures of others at the same address (a shared NAT, an attacker next door).
    if (cookie && (await this.tokens.verify(cookie))) return { kind: 'instance-session' };
    if (credentials && accepted?.user && !accepted.password && (await this.tokens.verify(credentials.pass))) {
      return { kind: 'instance-session' };
    }
    // A password can be guessed: past the limit even the right one is refused, so a lucky guess never shows.
    const address = clientAddress(request);
    await this.limiter.check(address);
    if (accepted?.password) return { kind: 'instance-password' };
    await this.limiter.fail(address);
    throw unauthorized(request);
  }
}
