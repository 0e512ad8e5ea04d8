import {
  Body,
  Controller,
  Delete,
  Get,
  HttpCode,
  Param,
  Patch,
  Post,
  Query,
  Res,
  UseFilters,
} from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { BodyLimit } from '@/common/http/body-parsers';
import { HttpReply } from '@/common/http/http';
import { LocationsService } from '../locations/locations.service';
import { V1QueryDto } from './dto/v1-query.dto';
import {
  V1CreateSessionDto,
  V1ListSessionsQueryDto,
  V1MessageParamsDto,
  V1MessagesQueryDto,
  V1PermissionParamsDto,
  V1PermissionReplyDto,
  V1PromptDto,
  V1SessionParamsDto,
  V1SessionPermissionParamsDto,
  V1SessionPermissionReplyDto,
  V1ShellDto,
  V1UpdateSessionDto,
} from './dto/v1-session.dto';
import { V1Directory } from './v1-directory.decorator';
import { V1EventsService } from './v1-events.service';
import { V1SessionsService } from './v1-sessions.service';
import { V1ErrorFilter } from './v1-error.filter';

/** A prompt carries text and attached files (as `data:` URLs). */
const PROMPT_BODY_LIMIT = 32 * 1024 * 1024;

/** opencode 1.18.33's v1 session, message, permission and event routes, on Outpost's sessions and runtime. */
@ApiExcludeController()
@Controller()
@UseFilters(V1ErrorFilter)
export class V1SessionsController {
  constructor(
    private readonly sessions: V1SessionsService,
    private readonly events: V1EventsService,
    private readonly locations: LocationsService,
  ) {}

  @Get('session')
  list(@Query() query: V1ListSessionsQueryDto, @V1Directory() directory?: string) {
    return this.sessions.list(query, directory);
  }

  @Post('session')
  @HttpCode(200)
  create(@Body() body: V1CreateSessionDto, @V1Directory() directory?: string) {
    return this.sessions.create(body, directory);
  }

  @Get('session/status')
  status(@Query() _query: V1QueryDto) {
    return this.sessions.status();
  }

  @Get('session/:sessionID')
  get(@Param() params: V1SessionParamsDto, @Query() _query: V1QueryDto) {
    return this.sessions.get(params.sessionID);
  }

  @Patch('session/:sessionID')
  update(@Param() params: V1SessionParamsDto, @Body() body: V1UpdateSessionDto) {
    return this.sessions.update(params.sessionID, body.title);
  }

  @Delete('session/:sessionID')
  remove(@Param() params: V1SessionParamsDto) {
    return this.sessions.remove(params.sessionID);
  }

  @Get('session/:sessionID/children')
  children(@Param() params: V1SessionParamsDto, @Query() _query: V1QueryDto) {
    return this.sessions.children(params.sessionID);
  }

  @Get('session/:sessionID/todo')
  todo(@Param() params: V1SessionParamsDto, @Query() _query: V1QueryDto) {
    return this.sessions.todos(params.sessionID);
  }

  @Get('session/:sessionID/diff')
  diff(@Param() _params: V1SessionParamsDto, @Query() _query: V1QueryDto): never[] {
    return [];
  }

  @Get('session/:sessionID/message')
  messages(@Param() params: V1SessionParamsDto, @Query() query: V1MessagesQueryDto) {
    return this.sessions.messages(
      params.sessionID,
      query.limit === undefined ? undefined : Number(query.limit),
    );
  }

  @Get('session/:sessionID/message/:messageID')
  message(@Param() params: V1MessageParamsDto, @Query() _query: V1QueryDto) {
    return this.sessions.message(params.sessionID, params.messageID);
  }

  @Post('session/:sessionID/message')
  @BodyLimit(PROMPT_BODY_LIMIT)
  @HttpCode(200)
  prompt(@Param() params: V1SessionParamsDto, @Body() body: V1PromptDto) {
    return this.sessions.prompt(params.sessionID, body, true);
  }

  @Post('session/:sessionID/prompt_async')
  @BodyLimit(PROMPT_BODY_LIMIT)
  @HttpCode(204)
  async promptAsync(@Param() params: V1SessionParamsDto, @Body() body: V1PromptDto): Promise<void> {
    await this.sessions.prompt(params.sessionID, body, false);
  }

  @Post('session/:sessionID/shell')
  @HttpCode(200)
  shell(@Param() params: V1SessionParamsDto, @Body() body: V1ShellDto) {
    return this.sessions.shell(params.sessionID, body);
  }

  @Post('session/:sessionID/abort')
  @HttpCode(200)
  abort(@Param() params: V1SessionParamsDto) {
    return this.sessions.abort(params.sessionID);
  }

  @Post('session/:sessionID/permissions/:permissionID')
  @HttpCode(200)
  sessionPermission(
    @Param() params: V1SessionPermissionParamsDto,
    @Body() body: V1SessionPermissionReplyDto,
  ) {
    return this.sessions.replyPermission(params.permissionID, body.response, undefined, params.sessionID);
  }

  @Get('permission')
  async permissions(@Query() _query: V1QueryDto, @V1Directory() directory?: string) {
    const location = directory ? (await this.locations.resolve(directory)).directory : undefined;
    return this.sessions.permissionList(location);
  }

  @Post('permission/:requestID/reply')
  @HttpCode(200)
  reply(@Param() params: V1PermissionParamsDto, @Body() body: V1PermissionReplyDto) {
    return this.sessions.replyPermission(params.requestID, body.reply, body.message);
  }

  @Get('event')
  async subscribe(@Query() _query: V1QueryDto, @Res() reply: HttpReply, @V1Directory() directory?: string) {
    const location = (await this.locations.resolve(directory)).directory;
    reply.hijack();
    this.events.open(reply.raw, { directory: location, global: false });
  }

  @Get('global/event')
  subscribeGlobal(@Query() _query: V1QueryDto, @Res() reply: HttpReply): void {
    reply.hijack();
    this.events.open(reply.raw, { global: true });
  }
}
