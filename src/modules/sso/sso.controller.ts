import { Controller, Get, Inject, Query, Req, Res } from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { Public } from '@/common/auth';
import { clearCookie, cookieValue, setCookie } from '@/common/http/cookies';
import { HttpReply, HttpRequest, isSecure, requestOrigin } from '@/common/http/http';
import { consoleAccessConfig, ConsoleAccessConfig } from '../console-access/console-access.config';
import { setSessionCookie } from '../console-access/session-cookie';
import { SsoRefusedError } from '../identity/identity.errors';
import { IdentityService } from '../identity/identity.service';
import { PendingSignIn } from './oidc-client';
import { SsoService } from './sso.service';

const PENDING_COOKIE = 'outpost_oidc';
const PENDING_OPTIONS = { httpOnly: true, sameSite: 'Lax' as const, path: '/console/auth/oidc' };

/** Where to go after signing in: only a path of the console itself (no open redirect). */
function consolePath(next: unknown): string {
  return typeof next === 'string' && /^\/console(\/|\?|$)/.test(next) && !/[\\\s]|\/\//.test(next)
    ? next
    : '/console';
}

function readPending(request: HttpRequest): (PendingSignIn & { next: string }) | undefined {
  const raw = cookieValue(request.headers.cookie, PENDING_COOKIE);
  if (!raw || raw.length > 1000) return undefined;
  try {
    const value = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8')) as Record<string, unknown>;
    const { state, nonce, verifier, next } = value;
    if (typeof state !== 'string' || typeof nonce !== 'string' || typeof verifier !== 'string')
      return undefined;
    return { state, nonce, verifier, next: consolePath(next) };
  } catch {
    return undefined;
  }
}

/**
 * The browser's round trip through the identity provider. Both routes answer with redirects: to the provider,
 * then to the console (or back to its sign-in page with the reason of a refusal).
 */
@ApiTags('console: sign-in')
@Public()
@Controller('console/auth/oidc')
export class SsoController {
  constructor(
    private readonly sso: SsoService,
    private readonly identity: IdentityService,
    @Inject(consoleAccessConfig.KEY) private readonly access: ConsoleAccessConfig,
  ) {}

  private origin(request: HttpRequest): string {
    return this.access.origin ?? requestOrigin(request);
  }

  @Get('start')
  @ApiOperation({
    operationId: 'auth.oidc.start',
    summary: 'Sign in with the identity provider: redirects to it (404 when none is configured)',
  })
  @ApiResponse({
    status: 303,
    description: "to the provider's authorization endpoint (or back to the sign-in page)",
  })
  async start(@Req() request: HttpRequest, @Res() response: HttpReply, @Query('next') next?: unknown) {
    let started: Awaited<ReturnType<SsoService['start']>>;
    try {
      started = await this.sso.start(this.origin(request));
    } catch (error) {
      if (!(error instanceof SsoRefusedError)) throw error;
      return response.redirect(`/console/login?sso_error=${error.reason}`, 303);
    }
    const { url, pending } = started;
    const value = Buffer.from(JSON.stringify({ ...pending, next: consolePath(next) })).toString('base64url');
    setCookie(response, PENDING_COOKIE, value, {
      ...PENDING_OPTIONS,
      secure: isSecure(request),
      maxAge: 600,
    });
    response.header('Cache-Control', 'no-store').redirect(url, 303);
  }

  @Get('callback')
  @ApiOperation({
    operationId: 'auth.oidc.callback',
    summary: 'Where the identity provider sends the browser back: signs in, then redirects to the console',
  })
  @ApiResponse({
    status: 303,
    description:
      'signed in (the cookie) to `next`, or to /console/login?sso_error=domain|unverified|signup|failed',
  })
  async callback(
    @Req() request: HttpRequest,
    @Res() response: HttpReply,
    @Query() query: Record<string, string>,
  ) {
    const pending = readPending(request);
    clearCookie(response, PENDING_COOKIE, { ...PENDING_OPTIONS, secure: isSecure(request) });
    response.header('Cache-Control', 'no-store');
    try {
      const session = await this.sso.finish(this.origin(request), query, pending, request.ip ?? '');
      setSessionCookie(request, response, session, this.identity.sessionLifetimeMs);
      response.redirect(pending?.next ?? '/console', 303);
    } catch (error) {
      if (!(error instanceof SsoRefusedError)) throw error;
      response.redirect(`/console/login?sso_error=${error.reason}`, 303);
    }
  }
}
