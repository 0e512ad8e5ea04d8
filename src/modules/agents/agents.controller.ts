import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiErrorResponse } from '../docs/api-error.decorator';
import { LocationQueryDto } from '../locations/dto/location-query.dto';
import { publicInfo } from '../locations/locations.controller';
import { LocationsService } from '../locations/locations.service';
import { AgentsService } from './agents.service';
import { AgentListResponseDto, AgentResponseDto } from './dto/agent-info.dto';
import { AgentParamsDto } from './dto/agent-params.dto';

@ApiTags('agent')
@Controller('api/agent')
export class AgentsController {
  constructor(
    private readonly locations: LocationsService,
    private readonly agents: AgentsService,
  ) {}

  @Get()
  @ApiOperation({ operationId: 'agent.list', summary: 'The agents of a location' })
  @ApiErrorResponse(404, 'LocationNotFoundError', 'no such location')
  async list(@Query() query: LocationQueryDto): Promise<AgentListResponseDto> {
    const location = await this.locations.resolve(query.location?.directory);
    return { location: publicInfo(location), data: await this.agents.list(location) };
  }

  @Get(':agentID')
  @ApiOperation({ operationId: 'agent.get', summary: 'One agent of a location' })
  @ApiErrorResponse(404, 'AgentNotFoundError', 'no such agent (or LocationNotFoundError)')
  async get(@Param() params: AgentParamsDto, @Query() query: LocationQueryDto): Promise<AgentResponseDto> {
    const location = await this.locations.resolve(query.location?.directory);
    return { location: publicInfo(location), data: await this.agents.get(location, params.agentID) };
  }
}
