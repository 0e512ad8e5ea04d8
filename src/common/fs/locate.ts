import { existsSync, realpathSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';

export interface LocatedPath {
  /** The location's real path. */
  root: string;
  absolute: string;
  /** With symbolic links followed: what is really read or written. */
  real: string;
  /** Relative to the location with `/` separators when inside it, else the real absolute path. */
  display: string;
  external: boolean;
}

/**
 * Resolves a path the model gave against the location. Symbolic links are followed, so a link inside the
 * location that points outside it counts as outside.
 */
export function locate(directory: string, path: string | undefined): LocatedPath {
  const absolute = resolve(directory, path ?? '.');
  const root = realpathSync(directory);
  const real = realExisting(absolute);
  const inside = isInside(root, real);
  return {
    root,
    absolute,
    real,
    display: inside ? relative(root, real).split(sep).join('/') || '.' : real,
    external: !inside,
  };
}

/**
 * The real path a walk of `located` keeps links under: the location, or, once a path outside it was allowed
 * (`external_directory` on `<dir>/*`), that directory.
 */
export function walkBoundary(located: LocatedPath): string {
  return located.external ? located.real : located.root;
}

/** Whether `path` is `root` or lies under it (both absolute). */
export function isInside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

/** realpath of the longest existing prefix, with the rest appended (for files about to be created). */
function realExisting(path: string): string {
  let existing = path;
  const rest: string[] = [];
  while (!existsSync(existing)) {
    const parent = dirname(existing);
    if (parent === existing) break;
    rest.unshift(basename(existing));
    existing = parent;
  }
  return join(realpathSync(existing), ...rest);
}
