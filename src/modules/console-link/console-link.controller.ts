import { Body, Controller, Get, HttpCode, Post } from '@nestjs/common';
import { ApiOperation, ApiServiceUnavailableResponse, ApiTags } from '@nestjs/swagger';
import { ConsoleLinkView, ConsoleLoginService } from './console-login.service';
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
  get(): ConsoleLinkView {
    return this.logins.view();
  }

  @Post('sign-in')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'consoleLink.signIn',
    summary: 'Start a device sign-in at a console: the code and link to approve it; the server polls',
  })
  @ApiServiceUnavailableResponse({
    description: 'ServiceUnavailableError: the console did not start a sign-in',
  })
  signIn(@Body() body: ConsoleSignInDto): Promise<ConsoleLinkView> {
    return this.logins.start(body.console);
  }

  @Post('sign-out')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'consoleLink.signOut',
    summary: 'Sign out of the console (it revokes the device sign-in) and forget the tokens',
  })
  signOut(): Promise<ConsoleLinkView> {
    return this.logins.signOut();
  }
}
