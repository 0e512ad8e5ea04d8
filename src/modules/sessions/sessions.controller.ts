import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiErrorResponse } from '../docs/api-error.decorator';
import { RenderedJson } from '@/common/http/rendered-json';
import { CreateSessionDto } from './dto/create-session.dto';
import { SessionActiveListDto, SessionResponseDto, SessionsPageDto } from './dto/session-info.dto';
import { ForkSessionDto } from './dto/fork-session.dto';
import { ListSessionsQueryDto } from './dto/list-sessions-query.dto';
import { MoveSessionDto } from './dto/move-session.dto';
import { SessionIdParamsDto } from './dto/session-id-params.dto';
import { SwitchAgentDto } from './dto/switch-agent.dto';
import { SwitchModelDto } from './dto/switch-model.dto';
import { UpdateSessionDto } from './dto/update-session.dto';
import { SessionInfo, SessionsPage } from './session.types';
import { SessionActive, SessionsActivity } from './sessions-activity';
import { SessionsPager } from './sessions-pager';
import { SessionsService } from './sessions.service';

@ApiTags('session')
@Controller('api/session')
export class SessionsController {
  constructor(
    private readonly sessions: SessionsService,
    private readonly pager: SessionsPager,
    private readonly activity: SessionsActivity,
  ) {}

  @Get()
  @ApiOperation({ operationId: 'session.list', summary: 'List sessions, newest first, in keyset pages' })
  @ApiOkResponse({ type: SessionsPageDto })
  @ApiErrorResponse(
    400,
    'InvalidCursorError',
    'the cursor is not one this server issued (or InvalidRequestError)',
  )
  list(@Query() query: ListSessionsQueryDto): Promise<RenderedJson<SessionsPage>> {
    return this.pager.list({
      limit: query.limit === undefined ? undefined : Number(query.limit),
      order: query.order,
      search: query.search,
      parentID: query.parentID === 'null' ? null : query.parentID,
      directory: query.directory,
      project: query.project,
      subpath: query.subpath,
      cursor: query.cursor,
    });
  }

  @Post()
  @HttpCode(200)
  @ApiOperation({ operationId: 'session.create', summary: 'Create a session' })
  @ApiOkResponse({ type: SessionResponseDto })
  @ApiErrorResponse(404, 'SessionNotFoundError', 'the parent session (or LocationNotFoundError)')
  @ApiErrorResponse(409, 'ConflictError', 'the id is taken')
  async create(@Body() body: CreateSessionDto): Promise<{ data: SessionInfo }> {
    return { data: await this.sessions.create(body) };
  }

  // Declared before `:sessionID`, which would otherwise take "active" for an id.
  @Get('active')
  @ApiOperation({ operationId: 'session.active', summary: 'Sessions with a running drain in this process' })
  @ApiOkResponse({ type: SessionActiveListDto })
  active(): { data: Record<string, SessionActive> } {
    return { data: this.activity.active() };
  }

  @Get(':sessionID')
  @ApiOperation({ operationId: 'session.get', summary: 'Get a session' })
  @ApiOkResponse({ type: SessionResponseDto })
  @ApiErrorResponse(404, 'SessionNotFoundError', 'no such session')
  get(@Param() params: SessionIdParamsDto): Promise<RenderedJson<{ data: SessionInfo }>> {
    return this.sessions.getRendered(params.sessionID);
  }

  @Patch(':sessionID')
  @HttpCode(204)
  @ApiOperation({ operationId: 'session.update', summary: 'Change title, metadata or permissions' })
  @ApiNoContentResponse({ description: 'Done' })
  @ApiErrorResponse(404, 'SessionNotFoundError', 'no such session')
  async update(@Param() params: SessionIdParamsDto, @Body() body: UpdateSessionDto): Promise<void> {
    await this.sessions.update(params.sessionID, body);
  }

  @Delete(':sessionID')
  @HttpCode(204)
  @ApiOperation({
    operationId: 'session.remove',
    summary: 'Delete a session, its children and their messages',
  })
  @ApiNoContentResponse({ description: 'Done' })
  @ApiErrorResponse(404, 'SessionNotFoundError', 'no such session')
  async remove(@Param() params: SessionIdParamsDto): Promise<void> {
    await this.sessions.remove(params.sessionID);
  }

  @Post(':sessionID/fork')
  @HttpCode(200)
  @ApiOperation({ operationId: 'session.fork', summary: 'Fork a session before a message, or whole' })
  @ApiOkResponse({ type: SessionResponseDto })
  @ApiErrorResponse(
    404,
    'SessionNotFoundError',
    'no such session (or MessageNotFoundError, LocationNotFoundError)',
  )
  async fork(
    @Param() params: SessionIdParamsDto,
    @Body() body: ForkSessionDto,
  ): Promise<{ data: SessionInfo }> {
    return { data: await this.sessions.fork(params.sessionID, body.before) };
  }

  @Post(':sessionID/agent')
  @HttpCode(204)
  @ApiOperation({
    operationId: 'session.switchAgent',
    summary: 'Use another agent from the next provider turn',
  })
  @ApiNoContentResponse({ description: 'Done' })
  @ApiErrorResponse(
    404,
    'SessionNotFoundError',
    'no such session (or AgentNotFoundError, LocationNotFoundError)',
  )
  async switchAgent(@Param() params: SessionIdParamsDto, @Body() body: SwitchAgentDto): Promise<void> {
    await this.sessions.switchAgent(params.sessionID, body.agent);
  }

  @Post(':sessionID/model')
  @HttpCode(204)
  @ApiOperation({
    operationId: 'session.switchModel',
    summary: 'Use another model from the next provider turn',
  })
  @ApiNoContentResponse({ description: 'Done' })
  @ApiErrorResponse(404, 'SessionNotFoundError', 'no such session (or LocationNotFoundError)')
  async switchModel(@Param() params: SessionIdParamsDto, @Body() body: SwitchModelDto): Promise<void> {
    await this.sessions.switchModel(params.sessionID, body.model);
  }

  @Post(':sessionID/move')
  @HttpCode(204)
  @ApiOperation({ operationId: 'session.move', summary: 'Move a session to another project directory' })
  @ApiNoContentResponse({ description: 'Done' })
  @ApiErrorResponse(404, 'SessionNotFoundError', 'no such session (or LocationNotFoundError)')
  async move(@Param() params: SessionIdParamsDto, @Body() body: MoveSessionDto): Promise<void> {
    await this.sessions.move(params.sessionID, body.directory, body.delivery);
  }
}
