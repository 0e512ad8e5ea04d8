import { Inject, Injectable, Logger } from '@nestjs/common';
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdir, rm, stat } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { isInside } from '@/common/fs/locate';
import { writeWholeFile } from '@/common/fs/whole-file';
import { promisify } from 'node:util';
import { appConfig, AppConfig } from '@/config/app.config';

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

  /**
   * Puts the location's files back as they were in `tree`: changed files rewritten, added ones deleted. A file is
   * rewritten by renaming a whole new copy over it, so an editor or watcher never sees it missing or half written.
   */
  restore(directory: string, tree: string): Promise<string[]> {
    return this.serial(directory, async () => {
      const git = await this.repository(directory);
      await git(['add', '--all', '.'], TRACK_TIMEOUT_MS);
      const now = (await git(['write-tree'])).trim();
      const changed = lines(await git(['diff', '--name-only', '--no-renames', '-z', tree, now]));
      if (changed.length === 0) return [];
      const entries = lines(await git(['ls-tree', '-r', '-z', tree, '--', ...changed])).map(treeEntry);
      const kept = new Set(entries.map((entry) => entry.path));
      for (const entry of entries) {
        const path = inside(directory, entry.path);
        if (!path) continue;
        if (entry.mode === SYMLINK) await git(['checkout', tree, '--', entry.path]);
        else {
          await mkdir(dirname(path), { recursive: true });
          await writeWholeFile(path, await git.blob(entry.object), entry.mode === EXECUTABLE ? 0o755 : 0o644);
        }
      }
      for (const file of changed.filter((f) => !kept.has(f))) {
        const path = inside(directory, file);
        if (path) await rm(path, { force: true });
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
    const blob = async (object: string): Promise<Buffer> => {
      const { stdout } = await run('git', ['cat-file', 'blob', object], {
        cwd: directory,
        env,
        maxBuffer: MAX_OUTPUT,
        encoding: 'buffer',
      });
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
    return Object.assign(git, { blob });
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

const SYMLINK = '120000';
const EXECUTABLE = '100755';

/** One line of `git ls-tree -r -z`: `<mode> <type> <object>\t<path>`. */
function treeEntry(line: string): { mode: string; object: string; path: string } {
  const tab = line.indexOf('\t');
  const [mode, , object] = line.slice(0, tab).split(' ');
  return { mode, object, path: line.slice(tab + 1) };
}

/** The absolute path of `file` in the location; undefined when it would lie outside it. */
function inside(directory: string, file: string): string | undefined {
  const path = resolve(directory, file);
  return isInside(directory, path) ? path : undefined;
}

function lines(text: string): string[] {
  return text.split('\0').filter((line) => line !== '');
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message.split('\n')[0] : String(error);
}
