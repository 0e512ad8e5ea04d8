import { isAbsolute, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import semver from 'semver';
import validateName from 'validate-npm-package-name';
import { PluginConfigEntry } from '../location-config/config.types';

/** A `plugins` entry, checked before anything runs: a package (name and range), a local path, or refused. */
export type PluginSpec =
  | { kind: 'package'; target: string; name: string; range: string }
  | { kind: 'local'; target: string; path: string }
  | { kind: 'invalid'; target: string; error: string };

const DIST_TAG = /^[a-z][a-z0-9._-]{0,63}$/i;

function isLocal(spec: string): boolean {
  return spec.startsWith('file:') || spec.startsWith('./') || spec.startsWith('../') || isAbsolute(spec);
}

/** `name`, `name@range`, `@scope/name@range` → name and range (`latest` when none). */
export function splitPackageSpec(spec: string): { name: string; range: string } {
  const at = spec.indexOf('@', spec.startsWith('@') ? 1 : 0);
  return at > 0 ? { name: spec.slice(0, at), range: spec.slice(at + 1) } : { name: spec, range: '' };
}

/** Why a package spec is refused, or undefined when npm may be asked for it. Follows npm's naming rules. */
export function packageSpecProblem(name: string, range: string): string | undefined {
  const verdict = validateName(name);
  if (!verdict.validForNewPackages) {
    const reasons = [...(verdict.errors ?? []), ...(verdict.warnings ?? [])];
    return `invalid package name "${name}": ${reasons.join('; ')}`;
  }
  if (range !== '' && semver.validRange(range) === null && !DIST_TAG.test(range)) {
    return `invalid version range "${range}" for ${name}`;
  }
  return undefined;
}

export function parsePluginSpec(entry: PluginConfigEntry): PluginSpec {
  const target = entry.spec;
  if (entry.error) return { kind: 'invalid', target, error: entry.error };
  if (isLocal(target)) {
    try {
      const path = target.startsWith('file:') ? fileURLToPath(target) : resolve(entry.baseDir, target);
      return { kind: 'local', target, path };
    } catch {
      return { kind: 'invalid', target, error: `invalid file URL "${target}"` };
    }
  }
  if (/^[a-z][a-z0-9+.-]*:/i.test(target)) {
    return {
      kind: 'invalid',
      target,
      error: `unsupported plugin spec "${target}": use an npm package name or a path`,
    };
  }
  const { name, range } = splitPackageSpec(target);
  const problem = packageSpecProblem(name, range);
  if (problem) return { kind: 'invalid', target, error: problem };
  return { kind: 'package', target, name, range: range || 'latest' };
}

/** The newest published version a range (or dist-tag) allows. */
export function newestMatching(
  range: string,
  versions: string[],
  distTags: Record<string, string>,
): string | undefined {
  if (distTags[range]) return distTags[range];
  return semver.maxSatisfying(versions, range) ?? undefined;
}
