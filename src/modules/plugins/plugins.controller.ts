import { Body, Controller, Get, HttpCode, Post, Query } from '@nestjs/common';
import { ApiNoContentResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiErrorResponse } from '../docs/api-error.decorator';
import { LocationQueryDto } from '../locations/dto/location-query.dto';
import { publicInfo } from '../locations/locations.controller';
import { LocationsService } from '../locations/locations.service';
import { PluginCheckDto } from './dto/plugin-check.dto';
import { PluginListResponseDto } from './dto/plugin-info.dto';
import { PluginUpdateDto } from './dto/plugin-update.dto';
import { PluginsService } from './plugins.service';

@ApiTags('plugin')
@Controller('api/plugin')
export class PluginsController {
  constructor(
    private readonly locations: LocationsService,
    private readonly plugins: PluginsService,
  ) {}

  @Get()
  @ApiOperation({ operationId: 'plugin.list', summary: 'The plugins of a location, with their status' })
  @ApiErrorResponse(404, 'LocationNotFoundError', 'no such location')
  async list(@Query() query: LocationQueryDto): Promise<PluginListResponseDto> {
    const location = await this.locations.resolve(query.location?.directory);
    return { location: publicInfo(location), data: await this.plugins.list(location) };
  }

  @Post('check')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'plugin.check',
    summary: 'Ask the registry whether newer versions are published',
  })
  @ApiErrorResponse(404, 'LocationNotFoundError', 'no such location')
  @ApiErrorResponse(
    503,
    'ServiceUnavailableError',
    'the registry cannot be reached ({ service: "registry" })',
  )
  async check(
    @Query() query: LocationQueryDto,
    @Body() body: PluginCheckDto,
  ): Promise<PluginListResponseDto> {
    const location = await this.locations.resolve(query.location?.directory);
    return { location: publicInfo(location), data: await this.plugins.check(location, body.target) };
  }

  @Post('update')
  @HttpCode(204)
  @ApiOperation({
    operationId: 'plugin.update',
    summary: 'Update package plugins, then reload where they are used',
  })
  @ApiErrorResponse(404, 'LocationNotFoundError', 'no such location')
  @ApiErrorResponse(503, 'ServiceUnavailableError', 'naming each target that failed')
  @ApiNoContentResponse({ description: 'Updated and reloaded' })
  async update(@Query() query: LocationQueryDto, @Body() body: PluginUpdateDto): Promise<void> {
    const location = await this.locations.resolve(query.location?.directory);
    await this.plugins.update(location, body.targets);
  }
}
