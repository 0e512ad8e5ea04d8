import { Controller, Get, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiErrorResponse } from '../docs/api-error.decorator';
import { LocationPublicInfoDto } from './dto/location-public-info.dto';
import { LocationQueryDto } from './dto/location-query.dto';
import { LocationPublicInfo } from './location.types';
import { LocationsService } from './locations.service';

export function publicInfo(location: LocationPublicInfo): LocationPublicInfo {
  return { directory: location.directory, project: location.project };
}

@ApiTags('location')
@Controller('api/location')
export class LocationsController {
  constructor(private readonly locations: LocationsService) {}

  @Get()
  @ApiOperation({ operationId: 'location.get', summary: 'Resolve a location, or the server default' })
  @ApiErrorResponse(404, 'LocationNotFoundError', 'no such location')
  @ApiOkResponse({ type: LocationPublicInfoDto })
  async get(@Query() query: LocationQueryDto): Promise<LocationPublicInfo> {
    return publicInfo(await this.locations.resolve(query.location?.directory));
  }
}
