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
import { CommandListDto, QuestionRequestListDto, SkillListDto } from './dto/catalog-lists.dto';
import { ApiErrorResponse } from '../docs/api-error.decorator';
import { LocationQueryDto } from '../locations/dto/location-query.dto';
import { publicInfo } from '../locations/locations.controller';
import { LocationsService } from '../locations/locations.service';
import { CommandInfo } from '../prompt/commands/command-files';
import { CommandsService } from '../prompt/commands/commands.service';
import { QuestionRequestsService } from '../runtime/questions/question-requests.service';
import { SkillsService } from '../runtime/skills/skills.service';
import { PermissionRequestsService } from '../runtime/permissions/permission-requests.service';
import { ProvidersService } from '../runtime/providers/providers.service';
import { modelViews, providerViews } from './model-views';

/**
 * The v2 operations opencode's released clients read at start-up that are lists of a location: models and
 * providers from its config, commands and skills, pending permission requests and questions from the runtime.
 * Outpost has no references or integrations of its own: for those, the empty list is the answer.
 */
@ApiTags('location')
@Controller('api')
export class LocationCatalogController {
  constructor(
    private readonly locations: LocationsService,
    private readonly permissions: PermissionRequestsService,
    private readonly providers: ProvidersService,
    private readonly commandTemplates: CommandsService,
    private readonly skillFiles: SkillsService,
    private readonly questionRequests: QuestionRequestsService,
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
  @ApiOperation({
    operationId: 'command.list',
    summary: 'Commands of a location (built-in, config, files, MCP)',
  })
  @ApiOkResponse({ type: CommandListDto })
  async commands(@Query() query: LocationQueryDto) {
    const location = await this.locations.resolve(query.location?.directory);
    const data = (await this.commandTemplates.list(location)).map(commandView);
    return { location: publicInfo(location), data };
  }

  @Get('skill')
  @ApiOperation({ operationId: 'skill.list', summary: 'Skills of a location (`<name>/SKILL.md` folders)' })
  @ApiOkResponse({ type: SkillListDto })
  async skills(@Query() query: LocationQueryDto) {
    const location = await this.locations.resolve(query.location?.directory);
    return { location: publicInfo(location), data: await this.skillFiles.list(location) };
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
  @ApiOperation({ operationId: 'question.request.list', summary: 'Pending questions at a location' })
  @ApiOkResponse({ type: QuestionRequestListDto })
  async questions(@Query() query: LocationQueryDto) {
    const location = await this.locations.resolve(query.location?.directory);
    return {
      location: publicInfo(location),
      data: this.questionRequests.list({ directory: location.directory }),
    };
  }

  private async empty(query: LocationQueryDto) {
    const location = await this.locations.resolve(query.location?.directory);
    return { location: publicInfo(location), data: [] as never[] };
  }
}

/** `CommandV2Info`: the model as `{ id, providerID }`. */
function commandView(command: CommandInfo) {
  const { name, template, description, agent, model, subtask } = command;
  const slash = model?.indexOf('/') ?? -1;
  return {
    name,
    template,
    ...(description ? { description } : {}),
    ...(agent ? { agent } : {}),
    ...(model && slash > 0
      ? { model: { providerID: model.slice(0, slash), id: model.slice(slash + 1) } }
      : {}),
    ...(subtask ? { subtask } : {}),
  };
}
