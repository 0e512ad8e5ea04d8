import { Body, Controller, HttpCode, Post, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { Public } from '@/common/auth';
import { ForbiddenError, InvalidRequestError } from '@/common/errors';
import { clearCookie, setCookie } from '@/common/http/cookies';
import { HttpReply, HttpRequest } from '@/common/http/http';
import { BrowserSignInService } from './browser-sign-in.service';
import { SignInDto } from './dto/sign-in.dto';
import { clientAddress } from './instance.authenticator';
import {
  isSameOrigin,
  sessionCookie,
  sessionCookieName,
  sessionCookieOptions,
} from './presented-credentials';

/** Only the page's own script signs in: JSON from this origin, never a form another site posts. */
function assertOwnPage(request: HttpRequest): void {
  if (!isSameOrigin(request)) throw new ForbiddenError('Sign in from this server’s own page');
  if (!/^application\/json\s*(;|$)/i.test(request.headers['content-type'] ?? '')) {
    throw new InvalidRequestError('Content-Type must be application/json', 'content-type', 'Headers');
  }
}

/**
 * The web app's own sign-in (`/auth/sign-in`, next to the pairing links of `/auth/connect/`): the server password
 * sets the same cookie a redeemed pairing link does. For browsers only, so not in the API documents: clients send
 * the password itself (Basic).
 */
@ApiExcludeController()
@Controller('auth')
export class BrowserSignInController {
  constructor(private readonly signIns: BrowserSignInService) {}

  @Public()
  @Post('sign-in')
  @HttpCode(204)
  async signIn(
    @Body() body: SignInDto,
    @Req() request: HttpRequest,
    @Res({ passthrough: true }) reply: HttpReply,
  ): Promise<void> {
    // Another site's page must not sign this browser in (to a session of its choosing or not).
    assertOwnPage(request);
    const token = await this.signIns.signIn(body.password, body.username, clientAddress(request));
    const options = sessionCookieOptions(request, this.signIns.sessionTtlSeconds);
    setCookie(reply, sessionCookieName(request.headers.host), token, options);
    void reply.header('cache-control', 'no-store');
  }

  @Public()
  @Post('sign-out')
  @HttpCode(204)
  async signOut(@Req() request: HttpRequest, @Res({ passthrough: true }) reply: HttpReply): Promise<void> {
    assertOwnPage(request);
    await this.signIns.signOut(sessionCookie(request));
    clearCookie(reply, sessionCookieName(request.headers.host), sessionCookieOptions(request, 0));
  }
}
