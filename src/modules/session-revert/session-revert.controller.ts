import { Body, Controller, HttpCode, Param, Post } from '@nestjs/common';
import { ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiErrorResponse } from '../docs/api-error.decorator';
import { SessionRevert } from '../prompt/revert/session-revert';
import { SessionIdParamsDto } from '../sessions/dto/session-id-params.dto';
import { RevertStageDto } from './dto/revert-stage.dto';

const STAGED_REVERT_RESPONSE = {
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
};

/** opencode's v2 revert of a session (stage, commit, clear), carried out by the prompt module's `SessionRevert`. */
@ApiTags('session')
@Controller('api')
export class SessionRevertController {
  constructor(private readonly reverts: SessionRevert) {}

  @Post('session/:sessionID/revert/stage')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'session.revert.stage',
    summary: "Stage a revert: the location's files back as before the message, it and later messages hidden",
  })
  @ApiOkResponse({
    schema: STAGED_REVERT_RESPONSE,
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
}
