import { Body, Controller, Get, HttpCode, Param, Post, Query, StreamableFile } from '@nestjs/common';
import {
  ApiConflictResponse,
  ApiNotFoundResponse,
  ApiOperation,
  ApiResponse,
  ApiTags,
} from '@nestjs/swagger';
import { BodyLimit } from '../../common/http/body-parsers';
import { SessionIdParamsDto } from '../sessions/dto/session-id-params.dto';
import { SessionInfo } from '../sessions/session.types';
import { ExportSessionQueryDto } from './dto/export-session-query.dto';
import { ImportSessionDto } from './dto/import-session.dto';
import { exportStream } from './json-stream';
import { SessionTransferService } from './session-transfer.service';

/** An export of a long session is large; only an authenticated caller gets past the default limit. */
const IMPORT_BODY_LIMIT = 64 * 1024 * 1024;

@ApiTags('session')
@Controller('api/experimental/session')
export class SessionTransferController {
  constructor(private readonly transfer: SessionTransferService) {}

  @Post('import')
  @BodyLimit(IMPORT_BODY_LIMIT)
  @HttpCode(200)
  @ApiOperation({
    operationId: 'experimental.session.import',
    summary: 'Import an exported session and its messages, all or nothing',
  })
  @ApiNotFoundResponse({ description: 'SessionNotFoundError (parent) or LocationNotFoundError' })
  @ApiConflictResponse({ description: 'ConflictError: a session with this id exists' })
  async import(@Body() body: ImportSessionDto): Promise<{ data: SessionInfo }> {
    return { data: await this.transfer.import(body) };
  }

  @Get(':sessionID/export')
  @ApiOperation({
    operationId: 'experimental.session.export',
    summary: 'The settled transcript of a session, streamed; sanitize=true redacts user content',
  })
  @ApiResponse({ status: 200, description: '{ data: SessionTransfer.Data }' })
  @ApiNotFoundResponse({ description: 'SessionNotFoundError' })
  @ApiResponse({ status: 500, description: 'UnknownError: a stored message cannot be decoded' })
  async export(
    @Param() params: SessionIdParamsDto,
    @Query() query: ExportSessionQueryDto,
  ): Promise<StreamableFile> {
    const data = await this.transfer.export(params.sessionID, query.sanitize === 'true');
    return new StreamableFile(exportStream(data), { type: 'application/json; charset=utf-8' });
  }
}
