import { Controller, Get, HttpCode, Param, Post, Query, UseFilters } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { V1QueryDto } from './dto/v1-query.dto';
import { V1Directory } from './v1-directory.decorator';
import { V1InstanceService } from './v1-instance.service';
import { V1SessionsService } from './v1-sessions.service';
import { V1ErrorFilter } from './v1-error.filter';

/**
 * opencode 1.18.33's v1 routes for what the TUI reads at start-up. Outpost has no LSP
 * servers, formatters, workspaces or console-managed providers of its own: empty answers are the true ones.
 */
@ApiExcludeController()
@Controller()
@UseFilters(V1ErrorFilter)
export class V1InstanceController {
  constructor(
    private readonly instance: V1InstanceService,
    private readonly sessions: V1SessionsService,
  ) {}

  @Get('global/health')
  health(@Query() _query: V1QueryDto) {
    return { healthy: true, version: this.instance.version };
  }

  @Get('path')
  path(@Query() _query: V1QueryDto, @V1Directory() directory?: string) {
    return this.instance.path(directory);
  }

  @Get('project/current')
  project(@Query() _query: V1QueryDto, @V1Directory() directory?: string) {
    return this.instance.project(directory);
  }

  @Get('project/:projectID/directories')
  directories(@Param('projectID') _projectID: string, @Query() _query: V1QueryDto): never[] {
    return [];
  }

  @Get('vcs')
  vcs(@Query() _query: V1QueryDto, @V1Directory() directory?: string) {
    return this.instance.vcs(directory);
  }

  @Get('config')
  config(@Query() _query: V1QueryDto, @V1Directory() directory?: string) {
    return this.instance.config(directory);
  }

  @Get('config/providers')
  configProviders(@Query() _query: V1QueryDto, @V1Directory() directory?: string) {
    return this.instance.configProviders(directory);
  }

  @Get('provider')
  providers(@Query() _query: V1QueryDto, @V1Directory() directory?: string) {
    return this.instance.providerList(directory);
  }

  @Get('provider/auth')
  providerAuth(@Query() _query: V1QueryDto): Record<string, never> {
    return {};
  }

  @Get('agent')
  agents(@Query() _query: V1QueryDto, @V1Directory() directory?: string) {
    return this.instance.agentList(directory);
  }

  @Get('command')
  commands(@Query() _query: V1QueryDto, @V1Directory() directory?: string) {
    return this.sessions.commandList(directory);
  }

  @Get('lsp')
  lsp(@Query() _query: V1QueryDto): never[] {
    return [];
  }

  @Get('formatter')
  formatters(@Query() _query: V1QueryDto): never[] {
    return [];
  }

  @Get('experimental/capabilities')
  capabilities(@Query() _query: V1QueryDto) {
    return { backgroundSubagents: false };
  }

  @Get('experimental/console')
  console(@Query() _query: V1QueryDto) {
    return { consoleManagedProviders: [], switchableOrgCount: 0 };
  }

  /** The console orgs opencode could switch to: none (`switchableOrgCount: 0` above). */
  @Get('experimental/console/orgs')
  consoleOrgs(@Query() _query: V1QueryDto): { orgs: never[] } {
    return { orgs: [] };
  }

  @Get('experimental/workspace')
  workspaces(@Query() _query: V1QueryDto): never[] {
    return [];
  }

  /** The kinds of workspace opencode can make (remote machines, containers): Outpost offers none. */
  @Get('experimental/workspace/adapter')
  workspaceAdapters(@Query() _query: V1QueryDto): never[] {
    return [];
  }

  /** opencode refreshes its workspace list from their hosts; Outpost has no workspaces to sync. */
  @Post('experimental/workspace/sync-list')
  @HttpCode(204)
  syncWorkspaces(@Query() _query: V1QueryDto): void {}

  @Get('experimental/workspace/status')
  workspaceStatus(@Query() _query: V1QueryDto): never[] {
    return [];
  }

  @Get('experimental/resource')
  resources(@Query() _query: V1QueryDto): Record<string, never> {
    return {};
  }
}
