import { Injectable } from '@nestjs/common';
import { execFile } from 'node:child_process';
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { LocationsService } from '../locations/locations.service';
import { readText } from '../runtime/tools/read.tool';
import { unifiedDiff } from '../runtime/tools/diff';

const run = promisify(execFile);
/** What one git call may print; a larger diff is cut (a vendored tree checked in by mistake). */
const MAX_GIT_OUTPUT = 32 * 1024 * 1024;
/** An untracked file larger than this is counted, not diffed. */
const MAX_UNTRACKED_BYTES = 1024 * 1024;

export interface VcsFileChange {
  file: string;
  additions: number;
  deletions: number;
  status: 'added' | 'deleted' | 'modified';
  patch?: string;
}

/**
 * The working tree's changes against HEAD, from git (asked with argument arrays, never a shell): tracked
 * files by `git diff`, untracked ones as added. Outside a git repository there are none.
 */
@Injectable()
export class V1VcsService {
  constructor(private readonly locations: LocationsService) {}

  /** `GET /vcs/status` and, renamed, `GET /file/status`. */
  async status(directory?: string, patches = false): Promise<VcsFileChange[]> {
    const location = await this.locations.resolve(directory);
    const root = location.project.directory;
    if (!(await isGitRoot(root))) return [];
    const git = (...args: string[]) =>
      run('git', ['-c', 'core.quotepath=off', ...args], { cwd: root, maxBuffer: MAX_GIT_OUTPUT }).then(
        ({ stdout }) => stdout,
        () => '',
      );
    const base = (await git('rev-parse', '--verify', '-q', 'HEAD')).trim() ? 'HEAD' : await emptyTree(root);
    const changes: VcsFileChange[] = [];
    const names = parseNameStatus(await git('diff', '--name-status', '--no-renames', base));
    for (const line of (await git('diff', '--numstat', '--no-renames', base)).split('\n')) {
      const [added, removed, file] = line.split('\t');
      if (!file) continue;
      changes.push({
        file,
        additions: Number(added) || 0,
        deletions: Number(removed) || 0,
        status: names.get(file) ?? 'modified',
        ...(patches ? { patch: await git('diff', '--no-renames', base, '--', file) } : {}),
      });
    }
    for (const file of (await git('ls-files', '--others', '--exclude-standard')).split('\n')) {
      if (!file) continue;
      const info = await stat(join(root, file)).catch(() => null);
      const text = info && info.size <= MAX_UNTRACKED_BYTES ? await readText(join(root, file)) : null;
      const added = text === null ? 0 : text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
      changes.push({
        file,
        additions: added,
        deletions: 0,
        status: 'added',
        ...(patches && text !== null ? { patch: unifiedDiff(file, '', text).diff } : {}),
      });
    }
    return changes.sort((a, b) => a.file.localeCompare(b.file));
  }
}

async function isGitRoot(root: string): Promise<boolean> {
  return stat(join(root, '.git')).then(
    () => true,
    () => false,
  );
}

/** A repository without commits compares against git's empty tree. */
async function emptyTree(root: string): Promise<string> {
  const { stdout } = await run('git', ['hash-object', '-t', 'tree', '/dev/null'], { cwd: root });
  return stdout.trim();
}

function parseNameStatus(text: string): Map<string, VcsFileChange['status']> {
  const map = new Map<string, VcsFileChange['status']>();
  for (const line of text.split('\n')) {
    const [code, file] = line.split('\t');
    if (!file) continue;
    map.set(file, code === 'A' ? 'added' : code === 'D' ? 'deleted' : 'modified');
  }
  return map;
}
