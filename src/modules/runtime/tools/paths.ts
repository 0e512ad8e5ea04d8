import { existsSync, realpathSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { ExternalPathError } from './tool.errors';
import { PermissionCheck, ToolContext } from './tool.types';

export interface LocatedPath {
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
    absolute,
    real,
    display: inside ? relative(root, real).split(sep).join('/') || '.' : real,
    external: !inside,
  };
}

/** `locate`, then refuse an outside path unless the loop allowed `external_directory` for this call. */
export function locateForRun(ctx: ToolContext, path: string | undefined): LocatedPath {
  const located = locate(ctx.directory, path);
  if (located.external && !ctx.allowExternal) throw new ExternalPathError(located.absolute);
  return located;
}

/**
 * The checks for a path: the tool's own action on it, plus `external_directory` on `<dir>/*` when it is
 * outside the location (`dir` being the file's parent, or the directory itself).
 */
export function pathChecks(
  directory: string,
  path: string | undefined,
  action: string,
  kind: 'file' | 'directory',
  resource?: string,
): PermissionCheck[] {
  const located = locate(directory, path);
  const checks: PermissionCheck[] = [{ action, resource: resource ?? located.display }];
  if (located.external) {
    const dir = kind === 'file' ? dirname(located.real) : located.real;
    checks.push({ action: 'external_directory', resource: join(dir, '*') });
  }
  return checks;
}

function isInside(root: string, path: string): boolean {
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
