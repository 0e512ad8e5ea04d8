import {
  Body,
  Controller,
  Delete,
  Get,
  HttpCode,
  Logger,
  Param,
  Post,
  Query,
  UseFilters,
} from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { LocationReloadService } from '../location-reload/location-reload.service';
import { SessionCompaction } from '../prompt/compaction/session-compaction';
import { SessionRevert } from '../prompt/revert/session-revert';
import { BUILTIN_TOOLS } from '../runtime/tools/builtin-tools';
import { WEBSEARCH_SPEC, WEBSEARCH_TOOL_ID } from '../runtime/tools/websearch.tool';
import { NotSupportedError } from '@/common/errors';
import {
  V1FindSymbolsQueryDto,
  V1FindTextQueryDto,
  V1ToolListQueryDto,
  V1VcsDiffQueryDto,
} from './dto/v1-file.dto';
import {
  V1CommandDto,
  V1ForkDto,
  V1InitDto,
  V1LogDto,
  V1PtyParamsDto,
  V1RevertDto,
  V1SummarizeDto,
} from './dto/v1-misc.dto';
import { V1QueryDto } from './dto/v1-query.dto';
import { V1ListSessionsQueryDto, V1MessageParamsDto, V1SessionParamsDto } from './dto/v1-session.dto';
import { V1Directory } from './v1-directory.decorator';
import { V1ErrorFilter } from './v1-error.filter';
import { V1FilesService } from './v1-files.service';
import { V1InstanceService } from './v1-instance.service';
import { V1SessionsService } from './v1-sessions.service';
import { v1Session } from './v1-shapes';
import { V1VcsService } from './v1-vcs.service';

/**
 * The rest of opencode 1.18.33's v1 routes its SDK and CLI call: changes from git, text search, projects, the
 * client's log lines, the global config, tool ids, session fork, and pseudo-terminals (which Outpost does not run).
 */
@ApiExcludeController()
@Controller()
@UseFilters(V1ErrorFilter)
export class V1ProjectController {
  private readonly clientLog = new Logger('opencode-client');

  constructor(
    private readonly vcs: V1VcsService,
    private readonly files: V1FilesService,
    private readonly instance: V1InstanceService,
    private readonly sessions: V1SessionsService,
    private readonly compaction: SessionCompaction,
    private readonly reverts: SessionRevert,
    private readonly reloads: LocationReloadService,
  ) {}

  @Get('vcs/status')
  async vcsStatus(@Query() _query: V1QueryDto, @V1Directory() directory?: string) {
    return (await this.vcs.status(directory)).map(({ file, additions, deletions, status }) => ({
      file,
      additions,
      deletions,
      status,
    }));
  }

  @Get('vcs/diff')
  vcsDiff(@Query() _query: V1VcsDiffQueryDto, @V1Directory() directory?: string) {
    return this.vcs.status(directory, true);
  }

  @Get('file/status')
  async fileStatus(@Query() _query: V1QueryDto, @V1Directory() directory?: string) {
    return (await this.vcs.status(directory)).map(({ file, additions, deletions, status }) => ({
      path: file,
      added: additions,
      removed: deletions,
      status,
    }));
  }

  @Get('find')
  findText(@Query() query: V1FindTextQueryDto, @V1Directory() directory?: string) {
    return this.files.findText(query.pattern, directory);
  }

  /** Outpost runs no language servers, so there are no symbols to find. */
  @Get('find/symbol')
  findSymbols(@Query() _query: V1FindSymbolsQueryDto): never[] {
    return [];
  }

  @Get('project')
  async projects(@Query() _query: V1QueryDto, @V1Directory() directory?: string) {
    return [await this.instance.project(directory)];
  }

  @Get('global/config')
  globalConfig(@Query() _query: V1QueryDto) {
    return this.instance.config();
  }

  /** Every built-in tool, and `websearch`, offered where a location's config (or a signed-in console) names a search provider. */
  @Get('experimental/tool/ids')
  toolIds(@Query() _query: V1QueryDto): string[] {
    return [...BUILTIN_TOOLS.map((tool) => tool.name), WEBSEARCH_TOOL_ID];
  }

  /**
   * The same tools with what the model is told of them: `{id, description, parameters}` (JSON Schema). Outpost
   * offers every model the same tools, so `provider` and `model` are required, as opencode requires them, and read
   * by nothing else.
   */
  @Get('experimental/tool')
  toolList(@Query() _query: V1ToolListQueryDto) {
    return [
      ...BUILTIN_TOOLS.map((tool) => ({
        id: tool.name,
        description: tool.description,
        parameters: tool.inputSchema,
      })),
      {
        id: WEBSEARCH_TOOL_ID,
        description: WEBSEARCH_SPEC.description,
        parameters: WEBSEARCH_SPEC.inputSchema,
      },
    ];
  }

  @Post('log')
  @HttpCode(200)
  log(@Body() body: V1LogDto, @Query() _query: V1QueryDto): true {
    const line = {
      service: body.service,
      message: body.message,
      ...(body.extra ? { extra: body.extra } : {}),
    };
    if (body.level === 'debug') this.clientLog.debug(line);
    else if (body.level === 'info') this.clientLog.log(line);
    else if (body.level === 'warn') this.clientLog.warn(line);
    else this.clientLog.error(line);
    return true;
  }

  @Post('session/:sessionID/fork')
  @HttpCode(200)
  fork(@Param() params: V1SessionParamsDto, @Body() body: V1ForkDto, @Query() _query: V1QueryDto) {
    return this.sessions.fork(params.sessionID, body.messageID);
  }

  /** A command template (`.opencode/command/<name>.md`) run as a prompt; answers with the last reply. */
  @Post('session/:sessionID/command')
  @HttpCode(200)
  command(@Param() params: V1SessionParamsDto, @Body() body: V1CommandDto, @Query() _query: V1QueryDto) {
    return this.sessions.command(params.sessionID, body);
  }

  /** opencode's `session.init`: the built-in `/init` run in the session; `true` once it has ended. */
  @Post('session/:sessionID/init')
  @HttpCode(200)
  async init(@Param() params: V1SessionParamsDto, @Body() body: V1InitDto, @Query() _query: V1QueryDto) {
    const model = body.providerID && body.modelID ? `${body.providerID}/${body.modelID}` : undefined;
    await this.sessions.command(params.sessionID, { command: 'init', ...(model ? { model } : {}) });
    return true;
  }

  /** The TUI's /compact: answers once the summary is written. */
  @Post('session/:sessionID/summarize')
  @HttpCode(200)
  async summarize(
    @Param() params: V1SessionParamsDto,
    @Body() body: V1SummarizeDto,
    @Query() _query: V1QueryDto,
  ): Promise<true> {
    const model =
      body.providerID && body.modelID ? { providerID: body.providerID, id: body.modelID } : undefined;
    await this.compaction.compact(params.sessionID, { reason: body.auto ? 'auto' : 'manual', model });
    return true;
  }

  /** The TUI's /undo: files back as before the message, the message and later ones hidden. */
  @Post('session/:sessionID/revert')
  @HttpCode(200)
  async revert(@Param() params: V1SessionParamsDto, @Body() body: V1RevertDto, @Query() _query: V1QueryDto) {
    return v1Session(await this.reverts.revert(params.sessionID, body.messageID, body.partID));
  }

  /** The TUI's /redo: the files and messages of the undo back. */
  @Post('session/:sessionID/unrevert')
  @HttpCode(200)
  async unrevert(@Param() params: V1SessionParamsDto, @Query() _query: V1QueryDto) {
    return v1Session(await this.reverts.unrevert(params.sessionID));
  }

  /** Nothing is shared (there is no share service), so there is nothing to take back: the session as it is. */
  @Delete('session/:sessionID/share')
  async unshare(@Param() params: V1SessionParamsDto, @Query() _query: V1QueryDto) {
    return this.sessions.get(params.sessionID);
  }

  @Delete('session/:sessionID/message/:messageID')
  deleteMessage(@Param() params: V1MessageParamsDto, @Query() _query: V1QueryDto): Promise<true> {
    return this.sessions.deleteMessage(params.sessionID, params.messageID);
  }

  /** The sessions of every project, newest first (the web app's session list across projects). */
  @Get('experimental/session')
  experimentalSessions(@Query() query: V1ListSessionsQueryDto) {
    return this.sessions.list(query);
  }

  /** Outpost keeps sessions on this server: there is no share service to publish them to. */
  @Post('session/:sessionID/share')
  share(@Param() _params: V1SessionParamsDto, @Query() _query: V1QueryDto): never {
    throw new NotSupportedError('session.share', 'sessions stay on this server; there is no share service');
  }

  @Get('pty')
  ptys(@Query() _query: V1QueryDto): never[] {
    return [];
  }

  @Post('pty')
  createPty(@Query() _query: V1QueryDto): never {
    throw new NotSupportedError('pty.create', 'Outpost does not run pseudo-terminals; use the shell route');
  }

  /** The login shells of the server's machine, from /etc/shells, as opencode lists them for a new terminal. */
  @Get('pty/shells')
  ptyShells(@Query() _query: V1QueryDto) {
    return this.instance.shells();
  }

  /** As in opencode, removing a terminal that is not there (Outpost runs none) succeeds. */
  @Delete('pty/:ptyID')
  removePty(@Param() _params: V1PtyParamsDto, @Query() _query: V1QueryDto): true {
    return true;
  }

  /** The TUI's reload: every loaded location's config, agents and plugins are read again. */
  @Post('instance/dispose')
  @HttpCode(200)
  async dispose(@Query() _query: V1QueryDto): Promise<true> {
    await this.reloads.reload();
    return true;
  }
}
