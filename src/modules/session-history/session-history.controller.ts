import { Body, Controller, Get, HttpCode, Param, Post, Query, Res } from '@nestjs/common';
import { ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiErrorResponse } from '../docs/api-error.decorator';
import { HttpReply } from '@/common/http/http';
import { SessionIdParamsDto } from '../sessions/dto/session-id-params.dto';
import { QuestionRequestsService } from '../runtime/questions/question-requests.service';
import { SessionsService } from '../sessions/sessions.service';
import { QuestionParamsDto, QuestionReplyDto } from './dto/question-reply.dto';
import { HistoryQueryDto, MessageParamsDto, SessionEventsQueryDto } from './dto/session-history.dto';
import {
  CONTEXT_RESPONSE,
  HISTORY_RESPONSE,
  MESSAGE_RESPONSE,
  QUESTIONS_RESPONSE,
  SESSION_EVENTS_RESPONSE,
} from './response-schemas';
import { SessionEventStreams } from './session-event-streams';
import { SessionHistoryService } from './session-history.service';

/**
 * The v2 operations of opencode's released SDK that read a session's transcript: one message, the model's context,
 * the durable history and its event stream, and its pending questions.
 */
@ApiTags('session')
@Controller('api')
export class SessionHistoryController {
  constructor(
    private readonly history: SessionHistoryService,
    private readonly sessions: SessionsService,
    private readonly eventStreams: SessionEventStreams,
    private readonly questionRequests: QuestionRequestsService,
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
    summary: "A session's pending questions (the question tool's)",
  })
  @ApiOkResponse({ schema: QUESTIONS_RESPONSE })
  @ApiErrorResponse(404, 'SessionNotFoundError', 'no such session')
  async questions(@Param() params: SessionIdParamsDto) {
    await this.sessions.get(params.sessionID);
    return { data: this.questionRequests.list({ sessionID: params.sessionID }) };
  }

  @Post('session/:sessionID/question/:requestID/reply')
  @HttpCode(204)
  @ApiOperation({ operationId: 'session.question.reply', summary: "Answers one of the session's questions" })
  @ApiNoContentResponse({ description: "The answer became the question tool's output" })
  @ApiErrorResponse(404, 'QuestionNotFoundError', 'no such pending question in this session')
  replyQuestion(@Param() params: QuestionParamsDto, @Body() body: QuestionReplyDto): void {
    this.questionRequests.reply(params.requestID, body.answers, params.sessionID);
  }

  @Post('session/:sessionID/question/:requestID/reject')
  @HttpCode(204)
  @ApiOperation({
    operationId: 'session.question.reject',
    summary: "Dismisses one of the session's questions",
  })
  @ApiNoContentResponse({ description: 'The question tool failed and the turn ended' })
  @ApiErrorResponse(404, 'QuestionNotFoundError', 'no such pending question in this session')
  rejectQuestion(@Param() params: QuestionParamsDto): void {
    this.questionRequests.reject(params.requestID, params.sessionID);
  }
}
