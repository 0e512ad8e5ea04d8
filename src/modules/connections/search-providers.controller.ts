import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal } from '@/common/auth';
import { ApiErrorResponse } from '../docs/api-error.decorator';
import { actorOf } from '../console-access/actor';
import { OrgRole, SignedInOnly } from '../console-access/console-access.decorators';
import { ConsolePrincipal } from '../console-access/console-principal';
import {
  CreateSearchProviderDto,
  SearchProviderDto,
  UpdateSearchProviderDto,
} from './dto/search-provider.dto';
import { searchProviderView } from './search-provider-view';
import { SearchProvidersService } from './search-providers.service';

/**
 * The workspace's web search providers, which `POST /inference/v1/search` calls once the workspace config's
 * `websearch.providerID` names one. Changes need an owner or admin signed in with the console cookie; owners and
 * admins (and All keys) may read. The API key is write-only.
 */
@ApiTags('console: search providers')
@Controller('console/api/orgs/:org/search-providers')
export class SearchProvidersController {
  constructor(private readonly providers: SearchProvidersService) {}

  @Post()
  @SignedInOnly()
  @OrgRole('admin')
  @ApiOperation({ operationId: 'searchProviders.create', summary: 'Add a web search provider' })
  async create(
    @Param('org') org: string,
    @Body() body: CreateSearchProviderDto,
    @CurrentPrincipal() principal: ConsolePrincipal,
  ): Promise<SearchProviderDto> {
    const created = await this.providers.create(actorOf(principal), org, {
      kind: body.kind,
      name: body.name,
      baseUrl: body.base_url,
      apiKey: body.api_key,
      pricePer1000: body.price_per_1000,
    });
    return searchProviderView(created);
  }

  @Get()
  @OrgRole('admin')
  @ApiOperation({ operationId: 'searchProviders.list', summary: 'The workspace’s web search providers' })
  async list(@Param('org') org: string): Promise<SearchProviderDto[]> {
    return (await this.providers.list(org)).map(searchProviderView);
  }

  @Get(':id')
  @OrgRole('admin')
  @ApiOperation({ operationId: 'searchProviders.get' })
  @ApiErrorResponse(404, 'NotFound', 'no such search provider in this workspace')
  async get(@Param('org') org: string, @Param('id') id: string): Promise<SearchProviderDto> {
    return searchProviderView(await this.providers.get(org, id));
  }

  @Patch(':id')
  @SignedInOnly()
  @OrgRole('admin')
  @ApiOperation({
    operationId: 'searchProviders.update',
    summary: 'Change a web search provider; `api_key` replaces the stored key',
  })
  @ApiErrorResponse(404, 'NotFound', 'no such search provider in this workspace')
  async update(
    @Param('org') org: string,
    @Param('id') id: string,
    @Body() body: UpdateSearchProviderDto,
    @CurrentPrincipal() principal: ConsolePrincipal,
  ): Promise<SearchProviderDto> {
    const updated = await this.providers.update(actorOf(principal), org, id, {
      name: body.name,
      baseUrl: body.base_url,
      apiKey: body.api_key,
      pricePer1000: body.price_per_1000,
    });
    return searchProviderView(updated);
  }

  @Delete(':id')
  @HttpCode(204)
  @SignedInOnly()
  @OrgRole('admin')
  @ApiOperation({
    operationId: 'searchProviders.remove',
    summary: 'Delete a web search provider and its key',
  })
  @ApiErrorResponse(404, 'NotFound', 'no such search provider in this workspace')
  async remove(
    @Param('org') org: string,
    @Param('id') id: string,
    @CurrentPrincipal() principal: ConsolePrincipal,
  ): Promise<void> {
    await this.providers.remove(actorOf(principal), org, id);
  }
}
