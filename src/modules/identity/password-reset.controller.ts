import { Body, Controller, Get, HttpCode, Inject, Param, Post, Req, Res } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, Public } from '@/common/auth';
import { HttpReply, HttpRequest, requestOrigin } from '@/common/http/http';
import { ApiErrorResponse } from '../docs/api-error.decorator';
import { consoleAccessConfig, ConsoleAccessConfig } from '../console-access/console-access.config';
import { OrgRole, SignedInOnly } from '../console-access/console-access.decorators';
import { actorOf } from '../console-access/actor';
import { ConsolePrincipal, personId } from '../console-access/console-principal';
import { setSessionCookie } from '../console-access/session-cookie';
import {
  PasswordResetCompleteDto,
  PasswordResetEmailDto,
  PasswordResetLinkDto,
  PasswordResetRequestDto,
  PasswordResetRequestedDto,
} from './dto/auth.dto';
import { IdentityService } from './identity.service';
import { PasswordResetService } from './password-reset.service';

@ApiTags('console: sign-in')
@Controller('console/api')
export class PasswordResetController {
  constructor(
    private readonly resets: PasswordResetService,
    private readonly identity: IdentityService,
    @Inject(consoleAccessConfig.KEY) private readonly access: ConsoleAccessConfig,
  ) {}

  private base(request: HttpRequest): string {
    return this.access.origin ?? requestOrigin(request);
  }

  @Post('auth/password-reset')
  @Public()
  @HttpCode(202)
  @ApiOperation({
    operationId: 'auth.passwordReset.request',
    summary:
      'Forgot password: emails a single-use link if an account has this email (the same answer either way)',
  })
  @ApiErrorResponse(429, 'TooManyRequestsError', 'too many requests from this address')
  async request(
    @Body() body: PasswordResetRequestDto,
    @Req() request: HttpRequest,
  ): Promise<PasswordResetRequestedDto> {
    await this.resets.request(body.email, request.ip ?? '', this.base(request));
    return {
      message: this.resets.byEmail
        ? 'If an account has this email, a link to reset its password is on its way.'
        : 'Password resets are not sent by email on this console: ask an owner of your workspace for a reset link.',
    };
  }

  @Post('auth/password-reset/complete')
  @Public()
  @HttpCode(204)
  @ApiOperation({
    operationId: 'auth.passwordReset.complete',
    summary:
      'Set a new password with a reset link: ends the account’s other sign-ins and signs in (sets the cookie)',
  })
  @ApiErrorResponse(410, 'Gone', 'the link was used, expired or replaced by a newer one')
  async complete(
    @Body() body: PasswordResetCompleteDto,
    @Req() request: HttpRequest,
    @Res({ passthrough: true }) response: HttpReply,
  ): Promise<void> {
    const { session } = await this.resets.complete(body.token, body.password);
    setSessionCookie(request, response, session, this.identity.sessionLifetimeMs);
  }

  @Get('auth/password-reset/:token')
  @Public()
  @ApiOperation({ operationId: 'auth.passwordReset.get', summary: 'The email a usable reset link is for' })
  @ApiErrorResponse(410, 'Gone', 'the link was used, expired or replaced by a newer one')
  async describe(@Param('token') token: string): Promise<PasswordResetEmailDto> {
    return { email: await this.resets.describe(token) };
  }

  @Post('orgs/:org/members/:user_id/password-reset')
  @SignedInOnly()
  @OrgRole('owner')
  @ApiOperation({
    operationId: 'member.passwordReset',
    summary: 'A single-use password reset link for a person of the workspace, to hand over (owners only)',
  })
  @ApiErrorResponse(403, 'Forbidden', 'the person also belongs to a workspace the caller does not own')
  async link(
    @Param('org') org: string,
    @Param('user_id') userId: string,
    @CurrentPrincipal() principal: ConsolePrincipal,
    @Req() request: HttpRequest,
  ): Promise<PasswordResetLinkDto> {
    const link = await this.resets.issueForOwner(
      actorOf(principal),
      personId(principal),
      org,
      userId,
      this.base(request),
    );
    return { url: link.url, expires_at: link.expiresAt.toISOString() };
  }
}
