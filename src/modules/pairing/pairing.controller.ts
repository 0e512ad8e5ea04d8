import { Controller, Get, HttpCode, Inject, Param, Post, Req, Res } from '@nestjs/common';
import { ApiFoundResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Public } from '@/common/auth';
import { clientAddress } from '../instance-auth/instance.authenticator';
import { sessionCookieName, sessionCookieOptions } from '../instance-auth/presented-credentials';
import { ConnectParamsDto } from './dto/connect-params.dto';
import { PairingCodeDto } from './dto/pairing-code.dto';
import { PairingSessionDto } from './dto/pairing-session.dto';
import { pairingConfig, PairingConfig } from './pairing.config';
import { PairingLinkExpiredError } from './pairing.errors';
import { PairingService } from './pairing.service';
import { setCookie } from '@/common/http/cookies';
import { HttpReply, HttpRequest, requestOrigin } from '@/common/http/http';
import { messagePage } from '../home/web-page';

const EXPIRED_PAGE = messagePage('This pairing link expired or was already used', [
  'A pairing link works once, for a few minutes. Ask for a new one: run <code>outpost pair</code> on the server, or use “Pair another device” on the server page of a connected browser.',
  'Already paired on this browser? <a href="/">Open Outpost</a>.',
]);

@ApiTags('server')
@Controller()
export class PairingController {
  constructor(
    private readonly pairing: PairingService,
    @Inject(pairingConfig.KEY) private readonly config: PairingConfig,
  ) {}

  @Post('api/pair')
  @HttpCode(200)
  @ApiOperation({ operationId: 'server.pair', summary: 'Create a short-lived, single-use pairing code' })
  async pair(
    @Req() request: HttpRequest,
    @Res({ passthrough: true }) response: HttpReply,
  ): Promise<PairingCodeDto> {
    response.header('Cache-Control', 'no-store');
    return this.pairing.create(requestOrigin(request));
  }

  @Public()
  @Get('auth/connect/:code')
  @ApiOperation({
    operationId: 'server.connect',
    summary: 'Redeem a pairing code: a session cookie and a redirect for browsers, a token for JSON clients',
  })
  @ApiOkResponse({ type: PairingSessionDto })
  @ApiFoundResponse({ description: 'Browser: redirect to the web app with the session cookie' })
  async connect(@Param() params: ConnectParamsDto, @Req() request: HttpRequest, @Res() response: HttpReply) {
    response.header('Cache-Control', 'no-store');
    const browser = (request.headers.accept ?? '').includes('text/html');
    let token: string;
    try {
      token = await this.pairing.redeem(params.code, clientAddress(request));
    } catch (error) {
      if (!browser || !(error instanceof PairingLinkExpiredError)) throw error;
      void response.status(401).type('text/html; charset=utf-8').send(EXPIRED_PAGE);
      return;
    }
    if (!browser) {
      void response.status(200).send({ token } satisfies PairingSessionDto);
      return;
    }
    const cookie = sessionCookieOptions(request, this.pairing.sessionTtlSeconds);
    setCookie(response, sessionCookieName(request.headers.host), token, cookie);
    void response.redirect(this.config.webUrl, 302);
  }
}
