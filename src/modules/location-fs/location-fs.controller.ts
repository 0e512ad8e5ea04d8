import { Controller, Get, Param, Query, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { HttpReply } from '@/common/http/http';
import { ApiErrorResponse } from '../docs/api-error.decorator';
import { LocationQueryDto } from '../locations/dto/location-query.dto';
import { findFiles, readLocationFile } from '../locations/location-files';
import { locationListSchema } from '../locations/location-schema';
import { publicInfo } from '../locations/locations.controller';
import { LocationsService } from '../locations/locations.service';
import { FsFindQueryDto, FsListQueryDto } from './dto/fs-query.dto';
import { LocationFsService } from './location-fs.service';

const FS_LIST_RESPONSE = locationListSchema({
  type: 'object',
  required: ['path', 'type'],
  properties: {
    path: { type: 'string', description: 'Relative to the location, `/`-separated' },
    type: { type: 'string', enum: ['file', 'directory'] },
  },
});

/** opencode's v2 `fs.*` operations: a location's directories listed, its files found and read. */
@ApiTags('session')
@Controller('api')
export class LocationFsController {
  constructor(
    private readonly locations: LocationsService,
    private readonly files: LocationFsService,
  ) {}

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
    return { location: publicInfo(location), data: await this.files.list(location.directory, query.path) };
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
}
