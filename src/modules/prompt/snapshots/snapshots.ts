import { Inject, Injectable, Logger } from '@nestjs/common';
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdir, rm, stat } from 'node:fs/promises';
import { isAbsolute, join, relative, resolve } from 'node:path';
import { promisify } from 'node:util';
import { appConfig, AppConfig } from '../../../config/app.config';

const run = promisify(execFile);
/** What one git call may print (a list of changed paths). */
const MAX_OUTPUT = 64 * 1024 * 1024;
/** A snapshot of a tree too large to record in this time is skipped (the step goes on without undo). */
const TRACK_TIMEOUT_MS = 60_000;

/**
 * Snapshots of a location's files, for undo: a git repository of Outpost's own per location (under the data
 * directory, never the project's `.git`), whose work tree is the location. A snapshot is the tree of every file
 * there that git would track (the location's ignore rules apply); restoring one writes back, or deletes, only
 * the files that differ, all inside the location. git is called with argument arrays, never a shell.
 */
@Injectable()
export class Snapshots {
  private readonly logger = new Logger(Snapshots.name);
  private readonly root: string;
  /** Calls for one location run one at a time (git's index is shared). */
  private readonly queues = new Map<string, Promise<unknown>>();

  constructor(@Inject(appConfig.KEY) app: AppConfig) {
    this.root = join(app.dataDir, 'snapshot');
  }

  /** The tree of the location's files now; undefined when git cannot record it (logged). */
  track(directory: string): Promise<string | undefined> {
    return this.serial(directory, async () => {
      try {
        const git = await this.repository(directory);
        await git(['add', '--all', '.'], TRACK_TIMEOUT_MS);
        return (await git(['write-tree'])).trim();
      } catch (error) {
        this.logger.warn(`Snapshot of ${directory} failed: ${describe(error)}`);
        return undefined;
      }
    });
  }

  /** Puts the location's files back as they were in `tree`: changed files rewritten, added ones deleted. */
  restore(directory: string, tree: string): Promise<string[]> {
    return this.serial(directory, async () => {
      const git = await this.repository(directory);
      await git(['add', '--all', '.'], TRACK_TIMEOUT_MS);
      const now = (await git(['write-tree'])).trim();
      const changed = lines(await git(['diff', '--name-only', '--no-renames', '-z', tree, now]));
      if (changed.length === 0) return [];
      const kept = new Set(lines(await git(['ls-tree', '-r', '-z', '--name-only', tree, '--', ...changed])));
      const back = changed.filter((file) => kept.has(file));
      if (back.length > 0) await git(['checkout', tree, '--', ...back]);
      for (const file of changed.filter((f) => !kept.has(f))) {
        const path = resolve(directory, file);
        const rel = relative(directory, path);
        if (rel.startsWith('..') || isAbsolute(rel)) continue; // never outside the location
        await rm(path, { force: true });
      }
      return changed;
    });
  }

  /** A git runner for the location's snapshot repository, created on first use. */
  private async repository(directory: string) {
    const gitDir = join(this.root, createHash('sha1').update(directory).digest('hex').slice(0, 20));
    const env = { ...process.env, GIT_DIR: gitDir, GIT_WORK_TREE: directory };
    const git = async (args: string[], timeout = 0) => {
      const { stdout } = await run(
        'git',
        ['-c', 'core.autocrlf=false', '-c', 'core.quotepath=off', '-c', 'core.longpaths=true', ...args],
        { cwd: directory, env, maxBuffer: MAX_OUTPUT, timeout },
      );
      return stdout;
    };
    const exists = await stat(join(gitDir, 'HEAD')).then(
      () => true,
      () => false,
    );
    if (!exists) {
      await mkdir(gitDir, { recursive: true });
      await git(['init', '--quiet']);
    }
    return git;
  }

  private serial<T>(directory: string, work: () => Promise<T>): Promise<T> {
    const previous = this.queues.get(directory) ?? Promise.resolve();
    const next = previous.then(work, work);
    const settled = next.catch(() => undefined);
    this.queues.set(directory, settled);
    void settled.then(() => {
      if (this.queues.get(directory) === settled) this.queues.delete(directory);
    });
    return next;
  }
}

function lines(text: string): string[] {
  return text.split('\0').filter((line) => line !== '');
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message.split('\n')[0] : String(error);
}
