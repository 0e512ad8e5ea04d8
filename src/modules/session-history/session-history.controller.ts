import { Body, Controller, Get, HttpCode, Param, Post, Query, Res } from '@nestjs/common';
import {
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import { ApiErrorResponse } from '../docs/api-error.decorator';
import { HttpReply } from '@/common/http/http';
import { LocationQueryDto } from '../locations/dto/location-query.dto';
import { findFiles, readLocationFile } from '../locations/location-files';
import { publicInfo } from '../locations/locations.controller';
import { LocationsService } from '../locations/locations.service';
import { SessionRevert } from '../prompt/revert/session-revert';
import { SessionCompaction } from '../prompt/compaction/session-compaction';
import { SessionIdParamsDto } from '../sessions/dto/session-id-params.dto';
import { SessionsService } from '../sessions/sessions.service';
import {
  FsFindQueryDto,
  FsListQueryDto,
  HistoryQueryDto,
  MessageParamsDto,
  RevertStageDto,
  SavedPermissionsQueryDto,
  SessionEventsQueryDto,
} from './dto/session-history.dto';
import {
  CONTEXT_RESPONSE,
  FS_LIST_RESPONSE,
  HISTORY_RESPONSE,
  MESSAGE_RESPONSE,
  PTY_LIST_RESPONSE,
  QUESTIONS_RESPONSE,
  SAVED_PERMISSIONS_RESPONSE,
  SESSION_EVENTS_RESPONSE,
} from './response-schemas';
import { NotSupportedError } from './session-history.errors';
import { SessionEventStreams } from './session-event-streams';
import { SessionHistoryService } from './session-history.service';

/**
 * The v2 operations of opencode's released SDK that read a session's transcript and a location's files,
 * compaction and revert (carried out by the prompt module), plus those Outpost answers truthfully with nothing
 * (saved permissions, questions, terminals).
 */
@ApiTags('session')
@Controller('api')
export class SessionHistoryController {
  constructor(
    private readonly history: SessionHistoryService,
    private readonly sessions: SessionsService,
    private readonly locations: LocationsService,
    private readonly compaction: SessionCompaction,
    private readonly reverts: SessionRevert,
    private readonly eventStreams: SessionEventStreams,
  ) {}

  @Get('session/:sessionID/message/:messageID')
  @ApiOperation({ operationId: 'session.message', summary: 'One message of the transcript' })
  @ApiOkResponse({ schema: MESSAGE_RESPONSE })
  @ApiErrorResponse(404, 'MessageNotFoundError', 'no such session or message')
  async message(@Param() params: MessageParamsDto) {
    await this.sessions.get(params.sessionID);
    return { data: await this.history.message(params.sessionID, params.messageID) };
  }

  @Get('session/:sessionID/context')
  @ApiOperation({
    operationId: 'session.context',
    summary: 'The messages the next model turn sees (Outpost does not compact: the whole transcript)',
  })
  @ApiOkResponse({ schema: CONTEXT_RESPONSE })
  @ApiErrorResponse(404, 'SessionNotFoundError', 'no such session')
  async context(@Param() params: SessionIdParamsDto) {
    return { data: await this.history.context(params.sessionID) };
  }

  @Get('session/:sessionID/history')
  @ApiOperation({
    operationId: 'session.history',
    summary: 'The durable session.next.* events of the transcript, numbered by seq',
  })
  @ApiOkResponse({ schema: HISTORY_RESPONSE })
  @ApiErrorResponse(404, 'SessionNotFoundError', 'no such session')
  historyOf(@Param() params: SessionIdParamsDto, @Query() query: HistoryQueryDto) {
    return this.history.history(
      params.sessionID,
      query.after === undefined ? 0 : Number(query.after),
      query.limit === undefined ? undefined : Number(query.limit),
    );
  }

  @Get('session/:sessionID/event')
  @ApiOperation({
    operationId: 'session.events',
    summary: 'SSE of one session: its durable history (after `after`), then its live events',
  })
  @ApiOkResponse(SESSION_EVENTS_RESPONSE)
  @ApiErrorResponse(404, 'SessionNotFoundError', 'no such session')
  async events(
    @Param() params: SessionIdParamsDto,
    @Query() query: SessionEventsQueryDto,
    @Res() reply: HttpReply,
  ): Promise<void> {
    const after = Number(/(\d+)$/.exec(query.after ?? '')?.[1] ?? 0);
    await this.sessions.get(params.sessionID);
    reply.hijack();
    await this.eventStreams.open(params.sessionID, reply.raw, after);
  }

  @Get('session/:sessionID/question')
  @ApiOperation({
    operationId: 'session.question.list',
    summary: "A session's pending questions (Outpost's tools ask none)",
  })
  @ApiOkResponse({ schema: QUESTIONS_RESPONSE })
  @ApiErrorResponse(404, 'SessionNotFoundError', 'no such session')
  async questions(@Param() params: SessionIdParamsDto) {
    await this.sessions.get(params.sessionID);
    return { data: [] as never[] };
  }

  @Post('session/:sessionID/compact')
  @HttpCode(204)
  @ApiOperation({
    operationId: 'session.compact',
    summary:
      'Compact the transcript: the compaction agent summarises it; the model gets the summary from then on',
  })
  @ApiNoContentResponse({ description: 'The summary is stored (a compaction message) and announced' })
  @ApiErrorResponse(400, 'InvalidRequestError', 'nothing new to compact')
  @ApiErrorResponse(404, 'SessionNotFoundError', 'no such session')
  @ApiErrorResponse(409, 'ConflictError', 'the session is running')
  @ApiErrorResponse(502, 'CompactionFailedError', 'the model could not write the summary')
  async compact(@Param() params: SessionIdParamsDto): Promise<void> {
    await this.compaction.compact(params.sessionID, { reason: 'manual' });
  }

  @Post('session/:sessionID/revert/stage')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'session.revert.stage',
    summary: "Stage a revert: the location's files back as before the message, it and later messages hidden",
  })
  @ApiOkResponse({
    schema: {
      type: 'object',
      required: ['data'],
      properties: {
        data: {
          type: 'object',
          required: ['messageID'],
          properties: {
            messageID: { type: 'string' },
            partID: { type: 'string' },
            snapshot: { type: 'string' },
          },
        },
      },
    },
    description: "The staged revert (also the session's `revert`)",
  })
  @ApiErrorResponse(404, 'SessionNotFoundError', 'no such session or message')
  @ApiErrorResponse(409, 'ConflictError', 'the session is running')
  async revertStage(@Param() params: SessionIdParamsDto, @Body() body: RevertStageDto) {
    const info = await this.reverts.revert(params.sessionID, body.messageID, body.partID);
    return { data: info.revert };
  }

  @Post('session/:sessionID/revert/commit')
  @HttpCode(204)
  @ApiOperation({
    operationId: 'session.revert.commit',
    summary: 'Make a staged revert final: its messages are deleted (a no-op without one)',
  })
  @ApiNoContentResponse({ description: 'No revert is staged any more' })
  @ApiErrorResponse(404, 'SessionNotFoundError', 'no such session')
  async revertCommit(@Param() params: SessionIdParamsDto): Promise<void> {
    await this.reverts.commit(params.sessionID);
  }

  @Post('session/:sessionID/revert/clear')
  @HttpCode(204)
  @ApiOperation({
    operationId: 'session.revert.clear',
    summary: 'Drop a staged revert: its files and messages come back (a no-op without one)',
  })
  @ApiNoContentResponse({ description: 'No revert is staged any more' })
  @ApiErrorResponse(404, 'SessionNotFoundError', 'no such session')
  @ApiErrorResponse(409, 'ConflictError', 'the session is running')
  async revertClear(@Param() params: SessionIdParamsDto): Promise<void> {
    await this.reverts.unrevert(params.sessionID);
  }

  @Get('permission/saved')
  @ApiOperation({
    operationId: 'permission.saved.list',
    summary: "A project's saved permissions (Outpost keeps `always` answers on the session: none)",
  })
  @ApiOkResponse({ schema: SAVED_PERMISSIONS_RESPONSE })
  savedPermissions(@Query() _query: SavedPermissionsQueryDto) {
    return { data: [] as never[] };
  }

  @Get('fs/list')
  @ApiOperation({
    operationId: 'fs.list',
    summary: 'The files and directories of a directory inside the location',
  })
  @ApiOkResponse({ schema: FS_LIST_RESPONSE })
  @ApiErrorResponse(400, 'InvalidRequestError', 'the path leads outside the location or is no directory')
  @ApiErrorResponse(404, 'LocationNotFoundError', 'no such location')
  async list(@Query() query: FsListQueryDto) {
    const location = await this.locations.resolve(query.location?.directory);
    return { location: publicInfo(location), data: await this.history.list(location.directory, query.path) };
  }

  @Get('fs/find')
  @ApiOperation({
    operationId: 'fs.find',
    summary: "Files and directories of the location matching a query, best first (opencode's file picker)",
  })
  @ApiOkResponse({ schema: FS_LIST_RESPONSE })
  @ApiErrorResponse(400, 'InvalidRequestError', 'a malformed query')
  @ApiErrorResponse(404, 'LocationNotFoundError', 'no such location')
  async find(@Query() query: FsFindQueryDto) {
    const location = await this.locations.resolve(query.location?.directory);
    const data = await findFiles(location.directory, query.query, {
      type: query.type,
      limit: query.limit ?? 20,
    });
    return { location: publicInfo(location), data };
  }

  @Get('fs/read/*')
  @ApiOperation({
    operationId: 'fs.read',
    summary: "A file of the location, as it is (the path follows '/read/')",
  })
  @ApiOkResponse({
    description: 'The file, with its content type',
    content: { 'application/octet-stream': { schema: { type: 'string', format: 'binary' } } },
  })
  @ApiErrorResponse(400, 'InvalidRequestError', 'the path leads outside the location, or is not a file')
  @ApiErrorResponse(404, 'LocationNotFoundError', 'no such location')
  async read(
    @Param('*') path: string,
    @Query() query: LocationQueryDto,
    @Res({ passthrough: true }) reply: HttpReply,
  ): Promise<Buffer> {
    const location = await this.locations.resolve(query.location?.directory);
    const file = await readLocationFile(location.directory, path);
    reply.header('content-type', file.mime);
    return file.bytes;
  }

  @Post('pty')
  @ApiOperation({ operationId: 'pty.create', summary: 'Start a pseudo-terminal (Outpost runs none: 501)' })
  @ApiCreatedResponse({
    description:
      'The shape opencode answers with; Outpost runs no pseudo-terminals, so it always answers 501',
    schema: {
      type: 'object',
      properties: {
        location: { type: 'object' },
        data: { type: 'object', properties: { id: { type: 'string' } } },
      },
    },
  })
  @ApiErrorResponse(501, 'NotSupportedError', 'Outpost runs no pseudo-terminals')
  async createPty(@Query() query: LocationQueryDto): Promise<never> {
    await this.locations.resolve(query.location?.directory);
    throw new NotSupportedError(
      'pty.create',
      'Outpost runs no pseudo-terminals; run commands with the shell route',
    );
  }

  @Get('pty')
  @ApiOperation({ operationId: 'pty.list', summary: 'Pseudo-terminals of a location (Outpost runs none)' })
  @ApiOkResponse({ schema: PTY_LIST_RESPONSE })
  @ApiErrorResponse(404, 'LocationNotFoundError', 'no such location')
  async ptys(@Query() query: LocationQueryDto) {
    const location = await this.locations.resolve(query.location?.directory);
    return { location: publicInfo(location), data: [] as never[] };
  }
}
