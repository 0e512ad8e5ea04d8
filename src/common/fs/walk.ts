import { Dirent } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';

/** Directories no search descends into: version control, dependencies, build caches. */
export const IGNORED_DIRECTORIES = new Set([
  '.git',
  'node_modules',
  '.hg',
  '.svn',
  'dist',
  'build',
  '.next',
  '.cache',
  'coverage',
  '__pycache__',
  '.venv',
  'target',
]);

export interface WalkEntry {
  /** Relative to the walk's root, `/`-separated. */
  path: string;
  absolute: string;
  directory: boolean;
}

/**
 * Depth-first, names in code-point order, ignored directories skipped, symbolic links listed but not followed;
 * stops with the signal's reason when it aborts.
 */
export async function* walk(root: string, signal: AbortSignal, prefix = ''): AsyncGenerator<WalkEntry> {
  signal.throwIfAborted();
  let entries: Dirent[];
  try {
    entries = await readdir(join(root, prefix), { withFileTypes: true });
  } catch {
    return; // unreadable directories are skipped, as `find` would
  }
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const entry of entries) {
    const path = prefix ? `${prefix}/${entry.name}` : entry.name;
    const directory = entry.isDirectory();
    if (directory && IGNORED_DIRECTORIES.has(entry.name)) continue;
    yield { path, absolute: join(root, path), directory };
    if (directory) yield* walk(root, signal, path);
  }
}
