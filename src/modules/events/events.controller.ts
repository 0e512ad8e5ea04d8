import { Controller, Get, Query, Res } from '@nestjs/common';
import { ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { LocationQueryDto } from '../locations/dto/location-query.dto';
import { LocationsService } from '../locations/locations.service';
import { EventStreamsService } from './event-streams.service';

@ApiTags('event')
@Controller('api/event')
export class EventsController {
  constructor(
    private readonly streams: EventStreamsService,
    private readonly locations: LocationsService,
  ) {}

  @Get()
  @ApiOperation({
    operationId: 'event.subscribe',
    summary: 'Server-Sent Events: `data:` lines of `{ id, created, type, location?, data }`',
  })
  @ApiOkResponse({
    description: 'An endless stream; `server.connected` first, `server.heartbeat` every 15 s',
    content: { 'text/event-stream': { schema: { type: 'string' } } },
  })
  @ApiNotFoundResponse({ description: 'LocationNotFoundError' })
  async subscribe(@Query() query: LocationQueryDto, @Res() response: Response): Promise<void> {
    const requested = query.location?.directory;
    const directory = requested ? (await this.locations.resolve(requested)).directory : undefined;
    this.streams.open(response, directory);
  }
}
