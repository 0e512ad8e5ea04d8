import { randomUUID } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { isRecord, parseAgentConfig } from '../location-config/config-validation';
import { AgentConfig } from '../location-config/config.types';

/** What a plugin module contributes: an optional `name` and agents. */
export interface PluginModule {
  name?: string;
  agents: Array<{ id: string; config: AgentConfig }>;
}

/**
 * A real `import()`: the build emits CommonJS, which would turn `import()` into `require()`, and plugins may be ES
 * modules. The source is unique per call: a cached compiled function would keep the module loader of the context
 * that first compiled it (jest's sandbox of another test file, for one).
 */
function nativeImport(specifier: string): Promise<unknown> {
  const load = new Function('specifier', `return import(specifier); // ${randomUUID()}`) as (
    s: string,
  ) => Promise<unknown>;
  return load(specifier);
}

async function isFile(path: string): Promise<boolean> {
  return stat(path).then(
    (s) => s.isFile(),
    () => false,
  );
}

/** The entry file of a package directory: `exports["."]` (import, then default), `main`, or index.js. */
async function packageEntry(dir: string): Promise<string> {
  const pkg = JSON.parse(await readFile(join(dir, 'package.json'), 'utf8')) as Record<string, unknown>;
  const pick = (value: unknown): string | undefined => {
    if (typeof value === 'string') return value;
    if (!isRecord(value)) return undefined;
    for (const key of ['.', 'import', 'node', 'default', 'require']) {
      const found = pick(value[key]);
      if (found) return found;
    }
    return undefined;
  };
  const entry = pick(pkg.exports) ?? (typeof pkg.main === 'string' ? pkg.main : 'index.js');
  for (const candidate of [entry, `${entry}.js`, `${entry}.mjs`, `${entry}.cjs`, join(entry, 'index.js')]) {
    if (await isFile(join(dir, candidate))) return join(dir, candidate);
  }
  throw new Error(`entry file ${entry} not found in ${basename(dir)}`);
}

/** Imports a plugin (a file, or a package directory) and checks what it exports. Throws with a readable reason. */
export async function loadPlugin(path: string, local: boolean): Promise<PluginModule> {
  const file = (await isFile(path)) ? path : await packageEntry(path);
  const url = pathToFileURL(file);
  // A changed local file is a new module on reload; installed packages live in fresh directories anyway.
  if (local) url.searchParams.set('mtime', String((await stat(file)).mtimeMs));
  const mod = (await nativeImport(url.href)) as Record<string, unknown>;
  const exported = { ...(isRecord(mod.default) ? mod.default : {}), ...mod };
  if (exported.name !== undefined && typeof exported.name !== 'string')
    throw new Error('`name` must be a string');
  const agents: PluginModule['agents'] = [];
  const raw = exported.agents;
  if (raw !== undefined) {
    const entries = Array.isArray(raw)
      ? raw.map((agent) => [isRecord(agent) ? agent.id : undefined, agent] as const)
      : isRecord(raw)
        ? Object.entries(raw)
        : undefined;
    if (!entries) throw new Error('`agents` must be an object of id → agent or a list of agents with ids');
    for (const [id, value] of entries) {
      if (typeof id !== 'string' || id === '') throw new Error('every agent needs a string id');
      const problems: Array<{ path: string; message: string }> = [];
      const config = parseAgentConfig(value, `agents.${id}`, problems);
      if (!config) throw new Error(problems.map((p) => `${p.path}: ${p.message}`).join('; '));
      agents.push({ id, config });
    }
  }
  return { ...(typeof exported.name === 'string' ? { name: exported.name } : {}), agents };
}
