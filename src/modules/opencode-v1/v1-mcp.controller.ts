import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query, UseFilters } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { LocationsService } from '../locations/locations.service';
import { McpUnsupportedOAuthError } from '../mcp/mcp.errors';
import { McpService } from '../mcp/mcp.service';
import { V1McpAddDto, V1McpAuthCodeDto } from './dto/v1-mcp.dto';
import { V1QueryDto } from './dto/v1-query.dto';
import { V1Directory } from './v1-directory.decorator';
import { V1ErrorFilter } from './v1-error.filter';

/**
 * opencode 1.18.33's MCP routes (`mcp.status`, `mcp.add`, `mcp.connect`, `mcp.disconnect`, `mcp.auth.*`) on the
 * location's servers; an unknown server is a 404.
 */
@ApiExcludeController()
@Controller('mcp')
@UseFilters(V1ErrorFilter)
export class V1McpController {
  constructor(
    private readonly locations: LocationsService,
    private readonly mcp: McpService,
  ) {}

  @Get()
  async status(@Query() _query: V1QueryDto, @V1Directory() directory?: string) {
    return this.mcp.status(await this.locations.resolve(directory));
  }

  @Post()
  @HttpCode(200)
  async add(@Query() _query: V1QueryDto, @Body() body: V1McpAddDto, @V1Directory() directory?: string) {
    return this.mcp.add(await this.locations.resolve(directory), body.name, body.config);
  }

  @Post(':name/connect')
  @HttpCode(200)
  async connect(
    @Param('name') name: string,
    @Query() _query: V1QueryDto,
    @V1Directory() directory?: string,
  ): Promise<true> {
    await this.mcp.connect(await this.locations.resolve(directory), name);
    return true;
  }

  @Post(':name/disconnect')
  @HttpCode(200)
  async disconnect(
    @Param('name') name: string,
    @Query() _query: V1QueryDto,
    @V1Directory() directory?: string,
  ): Promise<true> {
    await this.mcp.disconnect(await this.locations.resolve(directory), name);
    return true;
  }

  @Post(':name/auth')
  @HttpCode(200)
  async startAuth(
    @Param('name') name: string,
    @Query() _query: V1QueryDto,
    @V1Directory() directory?: string,
  ) {
    return this.mcp.startAuth(await this.locations.resolve(directory), name);
  }

  @Post(':name/auth/callback')
  @HttpCode(200)
  async authCallback(
    @Param('name') name: string,
    @Query() _query: V1QueryDto,
    @Body() body: V1McpAuthCodeDto,
    @V1Directory() directory?: string,
  ) {
    return this.mcp.finishAuth(await this.locations.resolve(directory), name, body.code);
  }

  /** opencode opens a browser on its own machine and waits; a server cannot, so this says how instead. */
  @Post(':name/auth/authenticate')
  async authenticate(
    @Param('name') name: string,
    @Query() _query: V1QueryDto,
    @V1Directory() directory?: string,
  ) {
    await this.mcp.find(await this.locations.resolve(directory), name);
    const how =
      'Outpost opens no browser: POST /mcp/{name}/auth, open its authorizationUrl, then POST the code to /mcp/{name}/auth/callback';
    throw new McpUnsupportedOAuthError(name, how);
  }

  @Delete(':name/auth')
  @HttpCode(200)
  async removeAuth(
    @Param('name') name: string,
    @Query() _query: V1QueryDto,
    @V1Directory() directory?: string,
  ) {
    await this.mcp.removeAuth(await this.locations.resolve(directory), name);
    return { success: true as const };
  }
}
