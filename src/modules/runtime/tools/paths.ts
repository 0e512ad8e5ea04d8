import { dirname, join } from 'node:path';
import { locate, LocatedPath } from '@/common/fs/locate';
import { ExternalPathError } from './tool.errors';
import { PermissionCheck, ToolContext } from './tool.types';

export { locate, LocatedPath } from '@/common/fs/locate';

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
