import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiConflictResponse,
  ApiNotFoundResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import { PermissionRequestsService } from '../runtime/permissions/permission-requests.service';
import { PermissionRequest } from '../runtime/permissions/permission.types';
import { SessionIdParamsDto } from '../sessions/dto/session-id-params.dto';
import { SessionsService } from '../sessions/sessions.service';
import { DrainsService } from './drains.service';
import { ListMessagesQueryDto } from './dto/list-messages-query.dto';
import { PermissionReplyDto, PermissionReplyParamsDto } from './dto/permission-reply.dto';
import { PromptDto } from './dto/prompt.dto';
import { InboxUser } from './inbox/inbox.types';
import { MessagesPage, messagesPage } from './messages-pager';
import { PromptService } from './prompt.service';
import { BodyLimit } from '../../common/http/body-parsers';

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
  ) {}

  @Post('prompt')
  @BodyLimit(PROMPT_BODY_LIMIT)
  @HttpCode(200)
  @ApiOperation({
    operationId: 'session.prompt',
    summary: 'Admit a prompt to the session inbox and wake its agent loop (not awaited)',
  })
  @ApiBadRequestResponse({ description: 'InvalidRequestError, or the model is not configured (named)' })
  @ApiNotFoundResponse({ description: 'SessionNotFoundError' })
  @ApiConflictResponse({ description: 'ConflictError: the prompt id is already a durable record' })
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
  @ApiNotFoundResponse({ description: 'SessionNotFoundError' })
  async interrupt(@Param() params: SessionIdParamsDto): Promise<void> {
    await this.sessions.get(params.sessionID);
    await this.drains.interrupt(params.sessionID);
  }

  @Get('message')
  @ApiOperation({ operationId: 'session.messages', summary: 'The transcript, in pages by message id' })
  @ApiBadRequestResponse({ description: 'InvalidCursorError or InvalidRequestError' })
  @ApiNotFoundResponse({ description: 'SessionNotFoundError' })
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
  @ApiNotFoundResponse({ description: 'SessionNotFoundError' })
  async listPermissions(@Param() params: SessionIdParamsDto): Promise<{ data: PermissionRequest[] }> {
    await this.sessions.get(params.sessionID);
    return { data: this.permissions.list(params.sessionID) };
  }

  @Post('permission/:requestID/reply')
  @HttpCode(204)
  @ApiOperation({
    operationId: 'session.permission.reply',
    summary: 'Answer a permission request: once, always (adds an allow rule to the session) or reject',
  })
  @ApiNotFoundResponse({ description: 'SessionNotFoundError or PermissionRequestNotFoundError' })
  async reply(@Param() params: PermissionReplyParamsDto, @Body() body: PermissionReplyDto): Promise<void> {
    await this.sessions.get(params.sessionID);
    this.permissions.reply(params.requestID, body.reply, {
      sessionID: params.sessionID,
      ...(body.message ? { message: body.message } : {}),
    });
  }
}
