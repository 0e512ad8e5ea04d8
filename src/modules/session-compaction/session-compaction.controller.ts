import { Controller, HttpCode, Param, Post } from '@nestjs/common';
import { ApiNoContentResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiErrorResponse } from '../docs/api-error.decorator';
import { SessionCompaction } from '../prompt/compaction/session-compaction';
import { SessionIdParamsDto } from '../sessions/dto/session-id-params.dto';

/** opencode's v2 `session.compact`, carried out by the prompt module's compaction. */
@ApiTags('session')
@Controller('api')
export class SessionCompactionController {
  constructor(private readonly compaction: SessionCompaction) {}

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
}
