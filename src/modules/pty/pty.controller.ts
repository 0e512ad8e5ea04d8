import { Controller, Delete, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import {
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import { NotSupportedError } from '@/common/errors';
import { ApiErrorResponse } from '../docs/api-error.decorator';
import { LocationQueryDto } from '../locations/dto/location-query.dto';
import { locationListSchema } from '../locations/location-schema';
import { publicInfo } from '../locations/locations.controller';
import { LocationsService } from '../locations/locations.service';
import { PtyParamsDto } from './dto/pty-params.dto';
import { PtyNotFoundError } from './pty.errors';

const PTY_LIST_RESPONSE = locationListSchema(
  {
    type: 'object',
    required: ['id', 'title', 'command', 'args', 'cwd', 'status', 'pid'],
    properties: {
      id: { type: 'string' },
      title: { type: 'string' },
      command: { type: 'string' },
      args: { type: 'array', items: { type: 'string' } },
      cwd: { type: 'string' },
      status: { type: 'string', enum: ['running', 'exited'] },
      pid: { type: 'integer' },
      exitCode: { type: 'integer' },
    },
  },
  'Outpost runs no pseudo-terminals: always empty',
);

/** opencode's v2 pseudo-terminal routes: Outpost runs none, and says so (an empty list, 501 to start one). */
@ApiTags('session')
@Controller('api')
export class PtyController {
  constructor(private readonly locations: LocationsService) {}

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

  @Delete('pty/:ptyID')
  @HttpCode(204)
  @ApiOperation({ operationId: 'pty.remove', summary: 'Stop a pseudo-terminal (Outpost runs none: 404)' })
  @ApiNoContentResponse({ description: 'Stopped (what opencode answers; Outpost runs none, so never)' })
  @ApiErrorResponse(404, 'PtyNotFoundError', 'no pseudo-terminal has that id')
  async removePty(@Param() params: PtyParamsDto, @Query() query: LocationQueryDto): Promise<never> {
    await this.locations.resolve(query.location?.directory);
    throw new PtyNotFoundError(params.ptyID);
  }
}
