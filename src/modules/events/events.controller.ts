import { Controller, Get, Query, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiErrorResponse } from '../docs/api-error.decorator';
import { HttpReply } from '@/common/http/http';
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
  @ApiErrorResponse(404, 'LocationNotFoundError', 'no such location')
  async subscribe(@Query() query: LocationQueryDto, @Res() reply: HttpReply): Promise<void> {
    const requested = query.location?.directory;
    const directory = requested ? (await this.locations.resolve(requested)).directory : undefined;
    // The stream outlives the handler: Fastify lets go of the response and the stream writes to it.
    reply.hijack();
    this.streams.open(reply.raw, directory);
  }
}
