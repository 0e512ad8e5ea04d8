import { Body, Controller, Get, HttpCode, Post, Query, Req, UseFilters } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { HttpRequest } from '@/common/http/http';
import { LocationsService } from '../locations/locations.service';
import { V1QueryDto } from './dto/v1-query.dto';
import {
  V1TuiAppendPromptDto,
  V1TuiExecuteCommandDto,
  V1TuiPublishDto,
  V1TuiSelectSessionDto,
  V1TuiShowToastDto,
} from './dto/v1-tui.dto';
import { V1Directory } from './v1-directory.decorator';
import { V1ErrorFilter } from './v1-error.filter';
import { V1TuiService } from './v1-tui.service';

/**
 * opencode's TUI control routes: editor integrations push prompts, commands and toasts to a TUI attached to this
 * server; the TUI gets them as events on its stream, or reads them with `GET /tui/control/next`.
 */
@ApiExcludeController()
@Controller('tui')
@UseFilters(V1ErrorFilter)
export class V1TuiController {
  constructor(
    private readonly tui: V1TuiService,
    private readonly locations: LocationsService,
  ) {}

  @Post('append-prompt')
  @HttpCode(200)
  async appendPrompt(
    @Query() _q: V1QueryDto,
    @Body() body: V1TuiAppendPromptDto,
    @V1Directory() dir?: string,
  ) {
    return this.tui.appendPrompt(body.text, await this.location(dir));
  }

  @Post('open-help')
  @HttpCode(200)
  async openHelp(@Query() _q: V1QueryDto, @V1Directory() dir?: string) {
    return this.tui.command('/tui/open-help', 'help.show', await this.location(dir));
  }

  @Post('open-sessions')
  @HttpCode(200)
  async openSessions(@Query() _q: V1QueryDto, @V1Directory() dir?: string) {
    return this.tui.command('/tui/open-sessions', 'session.list', await this.location(dir));
  }

  /** opencode 1.18.33 opens the session list here too; its TUI has no theme command to send. */
  @Post('open-themes')
  @HttpCode(200)
  async openThemes(@Query() _q: V1QueryDto, @V1Directory() dir?: string) {
    return this.tui.command('/tui/open-themes', 'session.list', await this.location(dir));
  }

  @Post('open-models')
  @HttpCode(200)
  async openModels(@Query() _q: V1QueryDto, @V1Directory() dir?: string) {
    return this.tui.command('/tui/open-models', 'model.list', await this.location(dir));
  }

  @Post('submit-prompt')
  @HttpCode(200)
  async submitPrompt(@Query() _q: V1QueryDto, @V1Directory() dir?: string) {
    return this.tui.command('/tui/submit-prompt', 'prompt.submit', await this.location(dir));
  }

  @Post('clear-prompt')
  @HttpCode(200)
  async clearPrompt(@Query() _q: V1QueryDto, @V1Directory() dir?: string) {
    return this.tui.command('/tui/clear-prompt', 'prompt.clear', await this.location(dir));
  }

  @Post('execute-command')
  @HttpCode(200)
  async executeCommand(
    @Query() _q: V1QueryDto,
    @Body() body: V1TuiExecuteCommandDto,
    @V1Directory() dir?: string,
  ) {
    return this.tui.executeCommand(body.command, await this.location(dir));
  }

  @Post('show-toast')
  @HttpCode(200)
  async showToast(@Query() _q: V1QueryDto, @Body() body: V1TuiShowToastDto, @V1Directory() dir?: string) {
    return this.tui.showToast(body, await this.location(dir));
  }

  @Post('select-session')
  @HttpCode(200)
  async selectSession(
    @Query() _q: V1QueryDto,
    @Body() body: V1TuiSelectSessionDto,
    @V1Directory() dir?: string,
  ) {
    return this.tui.selectSession(body.sessionID, await this.location(dir));
  }

  @Post('publish')
  @HttpCode(200)
  async publish(@Query() _q: V1QueryDto, @Body() body: V1TuiPublishDto, @V1Directory() dir?: string) {
    return this.tui.publish(body.type, body.properties, await this.location(dir));
  }

  /** Waits for the next request an editor made (as long as the client stays connected). */
  @Get('control/next')
  async next(@Query() _q: V1QueryDto, @Req() request: HttpRequest) {
    const gone = new AbortController();
    request.raw.on('close', () => gone.abort());
    return (await this.tui.next(gone.signal)) ?? null;
  }

  @Post('control/response')
  @HttpCode(200)
  response(@Query() _q: V1QueryDto, @Body() body: unknown) {
    return this.tui.respond(body);
  }

  private async location(directory?: string): Promise<string> {
    return (await this.locations.resolve(directory)).directory;
  }
}
