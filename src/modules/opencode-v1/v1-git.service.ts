import { Inject, Injectable } from '@nestjs/common';
import { execFile } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import { basename, join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { appConfig, AppConfig } from '@/config/app.config';
import { InvalidRequestError } from '@/common/errors';
import { ascendingId } from '@/common/ids';
import { LocationsService } from '../locations/locations.service';

const run = promisify(execFile);
const MAX_GIT_OUTPUT = 32 * 1024 * 1024;

export interface WorktreeInfo {
  name: string;
  branch: string;
  directory: string;
}

/**
 * The git operations of opencode's v1 routes (always argument arrays, never a shell): the raw working-tree diff,
 * `git init` for a project without one, and worktrees — a checkout of the project beside it on its own branch
 * (`opencode/<name>`), kept under the data folder's `worktree/<project id>/`.
 */
@Injectable()
export class V1GitService {
  constructor(
    private readonly locations: LocationsService,
    @Inject(appConfig.KEY) private readonly app: AppConfig,
  ) {}

  /** `GET /vcs/diff/raw`: `git diff HEAD` as text (empty outside a repository). */
  async rawDiff(directory?: string): Promise<string> {
    const root = await this.root(directory);
    const head = await this.git(root, 'rev-parse', '--verify', '-q', 'HEAD').catch(() => '');
    if (!head.trim()) return '';
    return this.git(root, 'diff', '--no-renames', 'HEAD').catch(() => '');
  }

  /** `POST /project/git/init`: a repository in the location (nothing changes in one that has it). */
  async init(directory?: string): Promise<void> {
    const location = await this.locations.resolve(directory);
    if (await this.isRepository(location.directory)) return;
    await this.git(location.directory, 'init', '-q');
  }

  /** `GET /experimental/worktree`: the directories of the project's worktrees made here. */
  async worktrees(directory?: string): Promise<string[]> {
    const root = await this.repository(directory);
    const own = this.worktreeFolder(await this.projectID(directory));
    return (await this.list(root)).filter((path) => path.startsWith(`${own}/`));
  }

  /** `POST /experimental/worktree`: a new worktree on branch `opencode/<name>` from HEAD. */
  async create(directory: string | undefined, name?: string): Promise<WorktreeInfo> {
    const root = await this.repository(directory);
    const chosen = name ?? ascendingId('wt').slice(3).toLowerCase();
    const folder = this.worktreeFolder(await this.projectID(directory));
    const target = join(folder, chosen);
    if ((await this.list(root)).includes(target)) {
      throw new InvalidRequestError(`A worktree named ${chosen} exists already`, 'name');
    }
    await mkdir(folder, { recursive: true });
    const branch = `opencode/${chosen}`;
    await this.git(root, 'worktree', 'add', '-q', '-b', branch, target, 'HEAD').catch((error: Error) => {
      throw new InvalidRequestError(`git worktree add failed: ${gitMessage(error)}`, 'name');
    });
    return { name: chosen, branch, directory: target };
  }

  /** `DELETE /experimental/worktree`: the worktree and its branch are removed. */
  async remove(directory: string | undefined, target: string): Promise<void> {
    const root = await this.repository(directory);
    const known = await this.owned(directory, root, target);
    await this.git(root, 'worktree', 'remove', '--force', known);
    await this.git(root, 'branch', '-D', `opencode/${basename(known)}`).catch(() => '');
  }

  /** `POST /experimental/worktree/reset`: the worktree back to the project's HEAD, untracked files gone. */
  async reset(directory: string | undefined, target: string): Promise<void> {
    const root = await this.repository(directory);
    const known = await this.owned(directory, root, target);
    const head = (await this.git(root, 'rev-parse', 'HEAD')).trim();
    await this.git(known, 'reset', '-q', '--hard', head);
    await this.git(known, 'clean', '-q', '-fd');
  }

  private async owned(directory: string | undefined, root: string, target: string): Promise<string> {
    const wanted = resolve(target);
    const own = this.worktreeFolder(await this.projectID(directory));
    if (!wanted.startsWith(`${own}/`) || !(await this.list(root)).includes(wanted)) {
      throw new InvalidRequestError(`${target} is not a worktree of this project`, 'directory');
    }
    return wanted;
  }

  private worktreeFolder(projectID: string): string {
    return join(this.app.dataDir, 'worktree', projectID);
  }

  private async projectID(directory?: string): Promise<string> {
    return (await this.locations.resolve(directory)).project.id;
  }

  private async root(directory?: string): Promise<string> {
    return (await this.locations.resolve(directory)).project.directory;
  }

  private async repository(directory?: string): Promise<string> {
    const root = await this.root(directory);
    if (!(await this.isRepository(root))) {
      throw new InvalidRequestError('The project is not a git repository', 'directory', 'Query');
    }
    return root;
  }

  private async isRepository(directory: string): Promise<boolean> {
    return this.git(directory, 'rev-parse', '--git-dir').then(
      () => true,
      () => false,
    );
  }

  private async list(root: string): Promise<string[]> {
    const out = await this.git(root, 'worktree', 'list', '--porcelain');
    return out
      .split('\n')
      .filter((line) => line.startsWith('worktree '))
      .map((line) => line.slice('worktree '.length));
  }

  private async git(cwd: string, ...args: string[]): Promise<string> {
    const { stdout } = await run('git', args, { cwd, maxBuffer: MAX_GIT_OUTPUT });
    return stdout;
  }
}

function gitMessage(error: Error): string {
  const stderr = (error as Error & { stderr?: string }).stderr;
  return (stderr || error.message).trim().split('\n')[0];
}
