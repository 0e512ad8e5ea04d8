import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query, UseFilters } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { LocationsService } from '../locations/locations.service';
import { McpUnsupportedOAuthError } from '../mcp/mcp.errors';
import { McpService } from '../mcp/mcp.service';
import { McpStatus } from '../mcp/mcp.types';
import { V1McpAddDto } from './dto/v1-mcp.dto';
import { V1QueryDto } from './dto/v1-query.dto';
import { V1Directory } from './v1-directory.decorator';
import { V1ErrorFilter } from './v1-error.filter';

/**
 * opencode 1.18.33's MCP routes (`mcp.status`, `mcp.add`, `mcp.connect`, `mcp.disconnect`, `mcp.auth.*`) on the
 * location's servers. OAuth is not run by Outpost: its routes answer 400 `McpUnsupportedOAuthError` for a known
 * server (404 for an unknown one).
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
  startAuth(@Param('name') name: string, @Query() _query: V1QueryDto, @V1Directory() directory?: string) {
    return this.noOAuth(name, directory);
  }

  @Post(':name/auth/callback')
  authCallback(@Param('name') name: string, @Query() _query: V1QueryDto, @V1Directory() directory?: string) {
    return this.noOAuth(name, directory);
  }

  @Post(':name/auth/authenticate')
  authenticate(@Param('name') name: string, @Query() _query: V1QueryDto, @V1Directory() directory?: string) {
    return this.noOAuth(name, directory);
  }

  @Delete(':name/auth')
  removeAuth(@Param('name') name: string, @Query() _query: V1QueryDto, @V1Directory() directory?: string) {
    return this.noOAuth(name, directory);
  }

  private async noOAuth(name: string, directory?: string): Promise<McpStatus> {
    await this.mcp.find(await this.locations.resolve(directory), name);
    throw new McpUnsupportedOAuthError(name);
  }
}
