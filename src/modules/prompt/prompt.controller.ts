import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiErrorResponse } from '../docs/api-error.decorator';
import {
  AdmittedPromptResponseDto,
  MessagesPageDto,
  PermissionRequestListDto,
  PermissionRequestResponseDto,
} from './dto/session-message.dto';
import { PermissionRequestsService } from '../runtime/permissions/permission-requests.service';
import { PermissionRequest } from '../runtime/permissions/permission.types';
import { SessionIdParamsDto } from '../sessions/dto/session-id-params.dto';
import { SessionsService } from '../sessions/sessions.service';
import { DrainsService } from './drains.service';
import { ListMessagesQueryDto } from './dto/list-messages-query.dto';
import {
  PermissionCreateDto,
  PermissionCreatedResponseDto,
  PermissionReplyDto,
  PermissionReplyParamsDto,
} from './dto/permission-reply.dto';
import { PromptDto } from './dto/prompt.dto';
import { InboxUser } from './inbox/inbox.types';
import { MessagesPage, messagesPage } from './messages-pager';
import { PromptService } from './prompt.service';
import { SessionPermissions } from './session-permissions';
import { BodyLimit } from '@/common/http/body-parsers';

/** A prompt carries its text (up to 1 MB) and attached files, base64-encoded. */
const PROMPT_BODY_LIMIT = 32 * 1024 * 1024;

@ApiTags('session')
@Controller('api/session/:sessionID')
export class PromptController {
  constructor(
    private readonly prompts: PromptService,
    private readonly drains: DrainsService,
    private readonly sessions: SessionsService,
    private readonly permissions: PermissionRequestsService,
    private readonly sessionPermissions: SessionPermissions,
  ) {}

  @Post('prompt')
  @BodyLimit(PROMPT_BODY_LIMIT)
  @HttpCode(200)
  @ApiOperation({
    operationId: 'session.prompt',
    summary: 'Admit a prompt to the session inbox and wake its agent loop (not awaited)',
  })
  @ApiErrorResponse(400, 'InvalidRequestError', 'a field, or the model is not configured (named)')
  @ApiOkResponse({ type: AdmittedPromptResponseDto })
  @ApiErrorResponse(404, 'SessionNotFoundError', 'no such session')
  @ApiErrorResponse(409, 'ConflictError', 'the prompt id is already a durable record')
  async prompt(
    @Param() params: SessionIdParamsDto,
    @Body() body: PromptDto,
  ): Promise<{ data: InboxUser & { admittedSeq: number } }> {
    return { data: await this.prompts.prompt(params.sessionID, body) };
  }

  @Post('interrupt')
  @HttpCode(204)
  @ApiOperation({
    operationId: 'session.interrupt',
    summary: 'Stop the running drain (tools cancelled, the step closed as interrupted); a no-op when idle',
  })
  @ApiErrorResponse(404, 'SessionNotFoundError', 'no such session')
  @ApiNoContentResponse({ description: 'Stopped, or nothing was running' })
  async interrupt(@Param() params: SessionIdParamsDto): Promise<void> {
    await this.sessions.get(params.sessionID);
    await this.drains.interrupt(params.sessionID);
  }

  @Get('message')
  @ApiOperation({ operationId: 'session.messages', summary: 'The transcript, in pages by message id' })
  @ApiErrorResponse(
    400,
    'InvalidCursorError',
    'the cursor is not one this server issued (or InvalidRequestError)',
  )
  @ApiOkResponse({ type: MessagesPageDto })
  @ApiErrorResponse(404, 'SessionNotFoundError', 'no such session')
  messages(@Param() params: SessionIdParamsDto, @Query() query: ListMessagesQueryDto): Promise<MessagesPage> {
    return messagesPage(this.sessions, params.sessionID, {
      limit: query.limit === undefined ? undefined : Number(query.limit),
      order: query.order,
      cursor: query.cursor,
    });
  }

  @Get('permission')
  @ApiOperation({
    operationId: 'session.permission.list',
    summary: 'Permission requests waiting for an answer',
  })
  @ApiErrorResponse(404, 'SessionNotFoundError', 'no such session')
  @ApiOkResponse({ type: PermissionRequestListDto })
  async listPermissions(@Param() params: SessionIdParamsDto): Promise<{ data: PermissionRequest[] }> {
    await this.sessions.get(params.sessionID);
    return { data: this.permissions.list(params.sessionID) };
  }

  @Post('permission')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'session.permission.create',
    summary: "Ask the session's rules about an action: allow, deny, or ask (a pending request is opened)",
  })
  @ApiOkResponse({ type: PermissionCreatedResponseDto })
  @ApiErrorResponse(404, 'SessionNotFoundError', 'no such session')
  async createPermission(@Param() params: SessionIdParamsDto, @Body() body: PermissionCreateDto) {
    return { data: await this.sessionPermissions.create(params.sessionID, body) };
  }

  @Get('permission/:requestID')
  @ApiOperation({ operationId: 'session.permission.get', summary: 'One pending permission request' })
  @ApiOkResponse({ type: PermissionRequestResponseDto })
  @ApiErrorResponse(404, 'SessionNotFoundError', 'no such session (or PermissionRequestNotFoundError)')
  async getPermission(@Param() params: PermissionReplyParamsDto) {
    return { data: await this.sessionPermissions.get(params.sessionID, params.requestID) };
  }

  @Post('wait')
  @HttpCode(204)
  @ApiOperation({
    operationId: 'session.wait',
    summary: 'Answers once the session is idle (at once when it is)',
  })
  @ApiNoContentResponse({ description: 'The session is idle' })
  @ApiErrorResponse(404, 'SessionNotFoundError', 'no such session')
  async wait(@Param() params: SessionIdParamsDto): Promise<void> {
    await this.sessionPermissions.wait(params.sessionID);
  }

  @Post('permission/:requestID/reply')
  @HttpCode(204)
  @ApiOperation({
    operationId: 'session.permission.reply',
    summary: 'Answer a permission request: once, always (adds an allow rule to the session) or reject',
  })
  @ApiErrorResponse(404, 'SessionNotFoundError', 'no such session (or PermissionRequestNotFoundError)')
  @ApiNoContentResponse({ description: 'Answered' })
  async reply(@Param() params: PermissionReplyParamsDto, @Body() body: PermissionReplyDto): Promise<void> {
    await this.sessions.get(params.sessionID);
    this.permissions.reply(params.requestID, body.reply, {
      sessionID: params.sessionID,
      ...(body.message ? { message: body.message } : {}),
    });
  }
}
