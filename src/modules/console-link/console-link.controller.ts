import { Body, Controller, Get, HttpCode, Post } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiErrorResponse } from '../docs/api-error.decorator';
import { ConsoleLinkView, ConsoleLoginService } from './console-login.service';
import { ConsoleLinkViewDto } from './dto/console-link-view.dto';
import { ConsoleSignInDto } from './dto/console-sign-in.dto';

/** Signing the instance in to a console from a browser (what `outpost login` and `outpost logout` do). */
@ApiTags('server')
@Controller('api/console-link')
export class ConsoleLinkController {
  constructor(private readonly logins: ConsoleLoginService) {}

  @Get()
  @ApiOperation({
    operationId: 'consoleLink.get',
    summary: 'The console link, and a sign-in waiting for its approval',
  })
  @ApiOkResponse({ type: ConsoleLinkViewDto })
  get(): ConsoleLinkView {
    return this.logins.view();
  }

  @Post('sign-in')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'consoleLink.signIn',
    summary: 'Start a device sign-in at a console: the code and link to approve it; the server polls',
  })
  @ApiOkResponse({ type: ConsoleLinkViewDto })
  @ApiErrorResponse(400, 'InvalidRequestError', 'console is no http(s) URL, or no console answers there')
  signIn(@Body() body: ConsoleSignInDto): Promise<ConsoleLinkView> {
    return this.logins.start(body.console);
  }

  @Post('sign-out')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'consoleLink.signOut',
    summary: 'Sign out of the console (it revokes the device sign-in) and forget the tokens',
  })
  @ApiOkResponse({ type: ConsoleLinkViewDto })
  signOut(): Promise<ConsoleLinkView> {
    return this.logins.signOut();
  }
}
