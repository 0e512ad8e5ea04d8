import { readdirSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { join } from 'node:path';

const root = join(__dirname, '..');

/** The server's source files (not specs): what `npm ci --omit=dev` in docker/Dockerfile must be able to load. */
function serverSources(dir = join(root, 'src')): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return serverSources(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.spec.ts') ? [path] : [];
  });
}

/** A module specifier's package name (`@scope/name` or `name`), or undefined for relative, alias and node: ones. */
function packageOf(specifier: string): string | undefined {
  if (/^(\.|@\/|node:)/.test(specifier)) return undefined;
  const parts = specifier.split('/');
  const name = specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
  return builtinModules.includes(name) ? undefined : name;
}

describe('package.json', () => {
  it('lists every package the server loads at run time under dependencies, not devDependencies', () => {
    const { dependencies } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
      dependencies: Record<string, string>;
    };
    const missing = new Set<string>();
    for (const file of serverSources()) {
      const text = readFileSync(file, 'utf8');
      // Value imports and requires; `import type` is erased by the build and needs nothing at run time.
      const specifiers = [
        ...text.matchAll(/^import (?!type )[^;]*? from '([^']+)'/gms),
        ...text.matchAll(/^import '([^']+)'/gm),
        ...text.matchAll(/\brequire\('([^']+)'\)/g),
        ...text.matchAll(/\bimport\('([^']+)'\)/g),
      ].map((match) => match[1]);
      for (const name of specifiers.map(packageOf))
        if (name && !dependencies[name]) missing.add(`${name} (${file.slice(root.length + 1)})`);
    }
    expect([...missing]).toEqual([]);
  });
});
