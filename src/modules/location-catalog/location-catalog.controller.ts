import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import {
  EmptyLocationListDto,
  InstanceHealthDto,
  LocationPermissionRequestsDto,
  ModelListDto,
  ProviderListDto,
  ProviderResponseDto,
} from './dto/catalog.dto';
import { IntegrationParamsDto, ProviderParamsDto } from './dto/catalog-params.dto';
import { IntegrationNotFoundError, ProviderLookupError } from './catalog.errors';
import { ApiErrorResponse } from '../docs/api-error.decorator';
import { LocationQueryDto } from '../locations/dto/location-query.dto';
import { publicInfo } from '../locations/locations.controller';
import { LocationsService } from '../locations/locations.service';
import { PermissionRequestsService } from '../runtime/permissions/permission-requests.service';
import { ProvidersService } from '../runtime/providers/providers.service';
import { modelViews, providerViews } from './model-views';

/**
 * The v2 operations opencode's released clients read at start-up that are lists of a location: models and
 * providers from its config, pending permission requests from the runtime. Outpost has no
 * commands, skills, references, integrations or questions of its own: for those, the empty list is the answer.
 */
@ApiTags('location')
@Controller('api')
export class LocationCatalogController {
  constructor(
    private readonly locations: LocationsService,
    private readonly permissions: PermissionRequestsService,
    private readonly providers: ProvidersService,
  ) {}

  @Get('health')
  @ApiOperation({ operationId: 'health.get', summary: 'The instance answers' })
  @ApiOkResponse({ type: InstanceHealthDto })
  health(): { healthy: true } {
    return { healthy: true };
  }

  @Get('permission/request')
  @ApiOperation({
    operationId: 'permission.request.list',
    summary: 'Pending permission requests at a location',
  })
  @ApiOkResponse({ type: LocationPermissionRequestsDto })
  async permissionRequests(@Query() query: LocationQueryDto) {
    const location = await this.locations.resolve(query.location?.directory);
    return { location: publicInfo(location), data: this.permissions.inLocation(location.directory) };
  }

  @Get('model')
  @ApiOperation({ operationId: 'model.list', summary: "The models of a location's providers" })
  @ApiOkResponse({ type: ModelListDto })
  async models(@Query() query: LocationQueryDto) {
    const location = await this.locations.resolve(query.location?.directory);
    const registry = await this.providers.forLocation(location);
    return { location: publicInfo(location), data: modelViews(registry.configs()) };
  }

  @Get('provider')
  @ApiOperation({ operationId: 'provider.list', summary: 'The providers of a location' })
  @ApiOkResponse({ type: ProviderListDto })
  async providerList(@Query() query: LocationQueryDto) {
    const location = await this.locations.resolve(query.location?.directory);
    const registry = await this.providers.forLocation(location);
    return { location: publicInfo(location), data: providerViews(registry.configs()) };
  }

  @Get('provider/:providerID')
  @ApiOperation({ operationId: 'provider.get', summary: 'One provider of a location' })
  @ApiOkResponse({ type: ProviderResponseDto })
  @ApiErrorResponse(404, 'ProviderNotFoundError', 'the location has no such provider')
  async provider(@Param() params: ProviderParamsDto, @Query() query: LocationQueryDto) {
    const location = await this.locations.resolve(query.location?.directory);
    const registry = await this.providers.forLocation(location);
    const found = providerViews(registry.configs()).find((p) => p.id === params.providerID);
    if (!found) throw new ProviderLookupError(params.providerID);
    return { location: publicInfo(location), data: found };
  }

  @Get('integration/:integrationID')
  @ApiOperation({ operationId: 'integration.get', summary: 'One integration (Outpost has none: 404)' })
  @ApiOkResponse({
    description: 'The shape opencode answers with; Outpost has no integrations, so it always answers 404',
    schema: {
      type: 'object',
      properties: {
        location: { type: 'object' },
        data: { type: 'object', properties: { id: { type: 'string' } } },
      },
    },
  })
  @ApiErrorResponse(404, 'IntegrationNotFoundError', 'no such integration')
  async integration(@Param() params: IntegrationParamsDto, @Query() query: LocationQueryDto): Promise<never> {
    await this.locations.resolve(query.location?.directory);
    throw new IntegrationNotFoundError(params.integrationID);
  }

  @Get('command')
  @ApiOperation({ operationId: 'command.list', summary: 'Commands of a location (none in Outpost)' })
  @ApiOkResponse({ type: EmptyLocationListDto })
  commands(@Query() query: LocationQueryDto) {
    return this.empty(query);
  }

  @Get('skill')
  @ApiOperation({ operationId: 'skill.list', summary: 'Skills of a location (none in Outpost)' })
  @ApiOkResponse({ type: EmptyLocationListDto })
  skills(@Query() query: LocationQueryDto) {
    return this.empty(query);
  }

  @Get('reference')
  @ApiOperation({ operationId: 'reference.list', summary: 'References of a location (none in Outpost)' })
  @ApiOkResponse({ type: EmptyLocationListDto })
  references(@Query() query: LocationQueryDto) {
    return this.empty(query);
  }

  @Get('integration')
  @ApiOperation({
    operationId: 'integration.list',
    summary: 'Integrations of a location (none in Outpost)',
  })
  @ApiOkResponse({ type: EmptyLocationListDto })
  integrations(@Query() query: LocationQueryDto) {
    return this.empty(query);
  }

  @Get('question/request')
  @ApiOperation({
    operationId: 'question.request.list',
    summary: 'Pending questions at a location (none in Outpost)',
  })
  @ApiOkResponse({ type: EmptyLocationListDto })
  questions(@Query() query: LocationQueryDto) {
    return this.empty(query);
  }

  private async empty(query: LocationQueryDto) {
    const location = await this.locations.resolve(query.location?.directory);
    return { location: publicInfo(location), data: [] as never[] };
  }
}
