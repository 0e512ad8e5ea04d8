import { Dirent } from 'node:fs';
import { readdir, realpath, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { isInside } from './locate';

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

/** One entry of a directory, symbolic links resolved. */
export interface DirEntry {
  name: string;
  /** Where it was found: `<directory>/<name>`. */
  absolute: string;
  /** What is really there, links followed: read this, not `absolute`. */
  real: string;
  /** A directory, or a link to one. */
  directory: boolean;
  link: boolean;
  /**
   * A link whose real target lies outside the boundary: never read, followed or offered as the boundary's own.
   * Whoever walks says so, or asks `external_directory` for the path.
   */
  outside: boolean;
}

export interface WalkEntry extends DirEntry {
  /** Relative to the walk's root, `/`-separated. */
  path: string;
}

/**
 * The files and directories of `directory` in code-point order of their names, links resolved against `boundary`
 * (a real path: the location's, or whatever the caller was allowed). Links that lead nowhere (dangling, looping)
 * and special files (sockets, FIFOs, devices) are left out: nothing there can be read as a file. Throws what
 * readdir throws.
 */
export async function readEntries(directory: string, boundary: string): Promise<DirEntry[]> {
  const dirents = await readdir(directory, { withFileTypes: true });
  dirents.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const realDirectory = await realpath(directory);
  const entries: DirEntry[] = [];
  for (const dirent of dirents) {
    const entry = await classify(directory, realDirectory, dirent, boundary);
    if (entry) entries.push(entry);
  }
  return entries;
}

async function classify(
  directory: string,
  realDirectory: string,
  dirent: Dirent,
  boundary: string,
): Promise<DirEntry | undefined> {
  const absolute = join(directory, dirent.name);
  if (!dirent.isSymbolicLink()) {
    if (!dirent.isFile() && !dirent.isDirectory()) return undefined;
    const real = join(realDirectory, dirent.name);
    return {
      name: dirent.name,
      absolute,
      real,
      directory: dirent.isDirectory(),
      link: false,
      outside: false,
    };
  }
  const real = await realpath(absolute).catch(() => undefined);
  const info = real === undefined ? undefined : await stat(real).catch(() => undefined);
  if (real === undefined || !(info?.isFile() || info?.isDirectory())) return undefined;
  return {
    name: dirent.name,
    absolute,
    real,
    directory: info.isDirectory(),
    link: true,
    outside: !isInside(boundary, real),
  };
}

export interface WalkOptions {
  /** The real path links must stay under to count as inside; the root's real path when not given. */
  boundary?: string;
}

/**
 * Depth-first, names in code-point order, ignored directories skipped. Every symbolic link is resolved: one whose
 * target is outside the boundary is yielded with `outside` set (and never descended into); a link to a directory
 * inside is yielded but not descended into either, as its target is walked where it really is (and a link to an
 * ancestor would never end). Unreadable directories are skipped, as `find` would; stops with the signal's reason
 * when it aborts.
 */
export async function* walk(
  root: string,
  signal: AbortSignal,
  options: WalkOptions = {},
): AsyncGenerator<WalkEntry> {
  const boundary = options.boundary ?? (await realpath(root).catch(() => root));
  yield* walkUnder(root, '', boundary, signal);
}

async function* walkUnder(
  root: string,
  prefix: string,
  boundary: string,
  signal: AbortSignal,
): AsyncGenerator<WalkEntry> {
  signal.throwIfAborted();
  let entries: DirEntry[];
  try {
    entries = await readEntries(join(root, prefix), boundary);
  } catch {
    return;
  }
  for (const entry of entries) {
    if (entry.directory && IGNORED_DIRECTORIES.has(entry.name)) continue;
    const path = prefix ? `${prefix}/${entry.name}` : entry.name;
    yield { ...entry, path };
    if (entry.directory && !entry.link) yield* walkUnder(root, path, boundary, signal);
  }
}
