import { Body, Controller, Delete, Get, HttpCode, Inject, Param, Patch, Post, Req } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal } from '@/common/auth';
import { HttpRequest, requestOrigin } from '@/common/http/http';
import { ApiErrorResponse } from '../docs/api-error.decorator';
import { consoleAccessConfig, ConsoleAccessConfig } from '../console-access/console-access.config';
import { actorOf } from '../console-access/actor';
import { OrgRole, SignedInOnly } from '../console-access/console-access.decorators';
import { ConsolePrincipal } from '../console-access/console-principal';
import { connectionView } from './connection-view';
import { ConnectionsService } from './connections.service';
import { ConnectionDto, CreateConnectionDto, UpdateConnectionDto } from './dto/connection.dto';

/**
 * The workspace's bring-your-own-key connections (Providers family). Changes need an owner or admin signed in
 * with the console cookie; owners and admins (and All keys) may read. The credential is write-only.
 */
@ApiTags('console: connections')
@Controller('console/api/orgs/:org/connections')
export class ConnectionsController {
  constructor(
    private readonly connections: ConnectionsService,
    @Inject(consoleAccessConfig.KEY) private readonly access: ConsoleAccessConfig,
  ) {}

  @Post()
  @SignedInOnly()
  @OrgRole('admin')
  @ApiOperation({
    operationId: 'connections.create',
    summary: 'Add a connection to a provider with the workspace’s own credential',
  })
  async create(
    @Param('org') org: string,
    @Body() body: CreateConnectionDto,
    @CurrentPrincipal() principal: ConsolePrincipal,
    @Req() request: HttpRequest,
  ): Promise<ConnectionDto> {
    const created = await this.connections.create(actorOf(principal), org, {
      name: body.name,
      baseUrl: body.base_url,
      schema: body.schema,
      auth: body.auth,
      models: body.models,
    });
    return connectionView(created, this.origin(request));
  }

  @Get()
  @OrgRole('admin')
  @ApiOperation({ operationId: 'connections.list', summary: 'The workspace’s connections, oldest first' })
  async list(@Param('org') org: string, @Req() request: HttpRequest): Promise<ConnectionDto[]> {
    const origin = this.origin(request);
    return (await this.connections.list(org)).map((connection) => connectionView(connection, origin));
  }

  @Get(':id')
  @OrgRole('admin')
  @ApiOperation({ operationId: 'connections.get' })
  @ApiErrorResponse(404, 'NotFound', 'no such connection in this workspace')
  async get(
    @Param('org') org: string,
    @Param('id') id: string,
    @Req() request: HttpRequest,
  ): Promise<ConnectionDto> {
    return connectionView(await this.connections.get(org, id), this.origin(request));
  }

  @Patch(':id')
  @SignedInOnly()
  @OrgRole('admin')
  @ApiOperation({
    operationId: 'connections.update',
    summary: 'Change a connection; `auth.credential` replaces the stored credential',
  })
  @ApiErrorResponse(404, 'NotFound', 'no such connection in this workspace')
  async update(
    @Param('org') org: string,
    @Param('id') id: string,
    @Body() body: UpdateConnectionDto,
    @CurrentPrincipal() principal: ConsolePrincipal,
    @Req() request: HttpRequest,
  ): Promise<ConnectionDto> {
    const updated = await this.connections.update(actorOf(principal), org, id, {
      name: body.name,
      baseUrl: body.base_url,
      schema: body.schema,
      auth: body.auth,
      models: body.models,
    });
    return connectionView(updated, this.origin(request));
  }

  @Delete(':id')
  @HttpCode(204)
  @SignedInOnly()
  @OrgRole('admin')
  @ApiOperation({ operationId: 'connections.remove', summary: 'Delete a connection and its credential' })
  @ApiErrorResponse(404, 'NotFound', 'no such connection in this workspace')
  async remove(
    @Param('org') org: string,
    @Param('id') id: string,
    @CurrentPrincipal() principal: ConsolePrincipal,
  ): Promise<void> {
    await this.connections.remove(actorOf(principal), org, id);
  }

  private origin(request: HttpRequest): string {
    return this.access.origin ?? requestOrigin(request);
  }
}
