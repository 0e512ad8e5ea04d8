import { Body, Controller, Delete, Get, HttpCode, Header, Post, Query, UseFilters } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { V1WorktreeCreateDto, V1WorktreeTargetDto } from './dto/v1-misc.dto';
import { V1QueryDto } from './dto/v1-query.dto';
import { V1Directory } from './v1-directory.decorator';
import { V1ErrorFilter } from './v1-error.filter';
import { V1GitService } from './v1-git.service';
import { V1InstanceService } from './v1-instance.service';

/** opencode's git routes: the raw diff, `git init` for a project, and worktrees (`git worktree`). */
@ApiExcludeController()
@Controller()
@UseFilters(V1ErrorFilter)
export class V1GitController {
  constructor(
    private readonly git: V1GitService,
    private readonly instance: V1InstanceService,
  ) {}

  @Get('vcs/diff/raw')
  @Header('content-type', 'text/plain; charset=utf-8')
  rawDiff(@Query() _query: V1QueryDto, @V1Directory() directory?: string): Promise<string> {
    return this.git.rawDiff(directory);
  }

  /** Answers with the project, now a git one. */
  @Post('project/git/init')
  @HttpCode(200)
  async initGit(@Query() _query: V1QueryDto, @V1Directory() directory?: string) {
    await this.git.init(directory);
    return this.instance.project(directory);
  }

  @Get('experimental/worktree')
  worktrees(@Query() _query: V1QueryDto, @V1Directory() directory?: string) {
    return this.git.worktrees(directory);
  }

  @Post('experimental/worktree')
  @HttpCode(200)
  create(@Query() _query: V1QueryDto, @Body() body: V1WorktreeCreateDto, @V1Directory() directory?: string) {
    return this.git.create(directory, body.name);
  }

  @Delete('experimental/worktree')
  async remove(
    @Query() _query: V1QueryDto,
    @Body() body: V1WorktreeTargetDto,
    @V1Directory() directory?: string,
  ) {
    await this.git.remove(directory, body.directory);
    return true;
  }

  @Post('experimental/worktree/reset')
  @HttpCode(200)
  async reset(
    @Query() _query: V1QueryDto,
    @Body() body: V1WorktreeTargetDto,
    @V1Directory() directory?: string,
  ) {
    await this.git.reset(directory, body.directory);
    return true;
  }
}
