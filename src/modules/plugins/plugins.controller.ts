import { Body, Controller, Get, HttpCode, Post, Query } from '@nestjs/common';
import { ApiNotFoundResponse, ApiOperation, ApiServiceUnavailableResponse, ApiTags } from '@nestjs/swagger';
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
  @ApiNotFoundResponse({ description: 'LocationNotFoundError' })
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
  @ApiNotFoundResponse({ description: 'LocationNotFoundError' })
  @ApiServiceUnavailableResponse({ description: 'ServiceUnavailableError { service: "registry" }' })
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
  @ApiNotFoundResponse({ description: 'LocationNotFoundError' })
  @ApiServiceUnavailableResponse({ description: 'ServiceUnavailableError naming each target that failed' })
  async update(@Query() query: LocationQueryDto, @Body() body: PluginUpdateDto): Promise<void> {
    const location = await this.locations.resolve(query.location?.directory);
    await this.plugins.update(location, body.targets);
  }
}
