import { Injectable } from '@nestjs/common';
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { stat } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { promisify } from 'node:util';
import { Project } from './location.types';

const run = promisify(execFile);

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}

/** Finds the project of a (real, absolute) directory. Git is asked with an argument array, never a shell. */
@Injectable()
export class ProjectResolver {
  private readonly rootCommits = new Map<string, Promise<string | undefined>>();

  async resolve(directory: string): Promise<{ project: Project; subpath: string }> {
    const root = await this.worktreeRoot(directory);
    if (!root) {
      return { project: { id: pathId(directory), directory, canonical: directory }, subpath: '' };
    }
    const commit = await this.rootCommit(root);
    return {
      project: { id: commit ?? pathId(root), directory: root, canonical: root },
      subpath: relative(root, directory),
    };
  }

  /** The nearest ancestor holding `.git` (a directory, or a file in a linked worktree). */
  private async worktreeRoot(directory: string): Promise<string | undefined> {
    for (let dir = directory; ; dir = dirname(dir)) {
      if (await exists(join(dir, '.git'))) return dir;
      if (dirname(dir) === dir) return undefined;
    }
  }

  private rootCommit(root: string): Promise<string | undefined> {
    let found = this.rootCommits.get(root);
    if (!found) {
      found = run('git', ['rev-list', '--max-parents=0', 'HEAD'], { cwd: root, timeout: 5_000 })
        .then(({ stdout }) => stdout.trim().split('\n').sort()[0] || undefined)
        .catch(() => undefined); // no commits yet, or git missing: fall back to the path
      this.rootCommits.set(root, found);
    }
    return found;
  }
}

/** A stable id for a directory outside any repository: a digest of its real path. */
export function pathId(directory: string): string {
  return createHash('sha1').update(directory).digest('hex');
}
