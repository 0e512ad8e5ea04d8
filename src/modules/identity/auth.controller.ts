import { Body, Controller, HttpCode, Inject, Post, Req, Res } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiErrorResponse } from '../docs/api-error.decorator';
import { Public } from '@/common/auth';
import { ConsoleForbiddenError } from '../console-access/console-access.errors';
import { LoginDto, SignupDto, SignupResultDto } from './dto/auth.dto';
import { consoleAccessConfig, ConsoleAccessConfig } from '../console-access/console-access.config';
import { IdentityService } from './identity.service';
import { isSameOriginChange } from '../console-access/same-origin';
import { clearSessionCookie, readSessionCookie, setSessionCookie } from '../console-access/session-cookie';
import { HttpReply, HttpRequest } from '@/common/http/http';

@ApiTags('console: sign-in')
@Controller('console/api/auth')
export class AuthController {
  constructor(
    private readonly identity: IdentityService,
    @Inject(consoleAccessConfig.KEY) private readonly access: ConsoleAccessConfig,
  ) {}

  @Post('signup')
  @Public()
  @ApiOperation({
    operationId: 'auth.signup',
    summary: 'Create an account (and a "Personal" workspace) and sign in',
  })
  @ApiErrorResponse(403, 'Forbidden', 'sign-up is closed, or needs an invitation')
  @ApiErrorResponse(409, 'Conflict', 'an account with this email exists')
  async signup(
    @Body() body: SignupDto,
    @Req() request: HttpRequest,
    @Res({ passthrough: true }) response: HttpReply,
  ): Promise<SignupResultDto> {
    const { user, session } = await this.identity.signup(body, request.ip ?? '');
    setSessionCookie(request, response, session, this.identity.sessionLifetimeMs);
    return { user: { id: user.id, email: user.email, name: user.name } };
  }

  @Post('login')
  @Public()
  @HttpCode(204)
  @ApiOperation({ operationId: 'auth.login', summary: 'Sign in with email and password (sets the cookie)' })
  @ApiErrorResponse(429, 'TooManyRequestsError', 'too many failed sign-ins')
  async login(
    @Body() body: LoginDto,
    @Req() request: HttpRequest,
    @Res({ passthrough: true }) response: HttpReply,
  ): Promise<void> {
    const session = await this.identity.login(body.email, body.password, request.ip ?? '');
    setSessionCookie(request, response, session, this.identity.sessionLifetimeMs);
  }

  @Post('logout')
  @Public()
  @HttpCode(204)
  @ApiOperation({ operationId: 'auth.logout', summary: 'End this sign-in (idempotent)' })
  async logout(@Req() request: HttpRequest, @Res({ passthrough: true }) response: HttpReply): Promise<void> {
    const cookie = readSessionCookie(request);
    if (!cookie) return;
    if (!isSameOriginChange(request, this.access.origin)) {
      throw new ConsoleForbiddenError('Sign-out must come from the console');
    }
    await this.identity.logout(cookie);
    clearSessionCookie(request, response);
  }
}
