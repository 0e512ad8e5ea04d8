import { Body, Controller, Get, HttpCode, Param, Post, Query, StreamableFile } from '@nestjs/common';
import { ApiBody, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiErrorResponse } from '../docs/api-error.decorator';
import { SessionResponseDto } from '../sessions/dto/session-info.dto';
import { SessionExportDto } from './dto/session-export.dto';
import { StreamedBody, StreamsBody } from '@/common/http/body-parsers';
import { SessionIdParamsDto } from '../sessions/dto/session-id-params.dto';
import { SessionInfo } from '../sessions/session.types';
import { ExportSessionQueryDto } from './dto/export-session-query.dto';
import { ImportSessionDto } from './dto/import-session.dto';
import { exportStream } from './json-stream';
import { SessionTransferService } from './session-transfer.service';

@ApiTags('session')
@Controller('api/experimental/session')
export class SessionTransferController {
  constructor(private readonly transfer: SessionTransferService) {}

  /**
   * The body is read as it streams (an export of any size imports again, up to OUTPOST_IMPORT_BODY_LIMIT): only an
   * authenticated caller gets past the default limit.
   */
  @Post('import')
  @StreamsBody()
  @HttpCode(200)
  @ApiOperation({
    operationId: 'experimental.session.import',
    summary: 'Import an exported session and its messages, all or nothing',
  })
  @ApiBody({ type: ImportSessionDto })
  @ApiErrorResponse(404, 'SessionNotFoundError', 'the parent session (or LocationNotFoundError)')
  @ApiOkResponse({ type: SessionResponseDto })
  @ApiErrorResponse(409, 'ConflictError', 'a session with this id exists')
  @ApiErrorResponse(413, 'PayloadTooLargeError', 'the body is larger than OUTPOST_IMPORT_BODY_LIMIT')
  async import(@Body() body: StreamedBody | undefined): Promise<{ data: SessionInfo }> {
    return { data: await this.transfer.import(body) };
  }

  @Get(':sessionID/export')
  @ApiOperation({
    operationId: 'experimental.session.export',
    summary: 'The settled transcript of a session, streamed; sanitize=true redacts user content',
  })
  @ApiOkResponse({ type: SessionExportDto, description: '`SessionTransfer.Data`, streamed' })
  @ApiErrorResponse(404, 'SessionNotFoundError', 'no such session')
  @ApiErrorResponse(500, 'UnknownError', 'a stored message cannot be decoded')
  async export(
    @Param() params: SessionIdParamsDto,
    @Query() query: ExportSessionQueryDto,
  ): Promise<StreamableFile> {
    const data = await this.transfer.export(params.sessionID, query.sanitize === 'true');
    return new StreamableFile(exportStream(data), { type: 'application/json; charset=utf-8' });
  }
}
