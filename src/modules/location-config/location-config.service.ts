import { Inject, Injectable, Logger } from '@nestjs/common';
import { ParseError, parse as parseJsonc, printParseErrorCode } from 'jsonc-parser';
import { readFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { LocationCache } from '../locations/location-cache';
import { ResolvedLocation } from '../locations/location.types';
import { LocationsService } from '../locations/locations.service';
import { emptyConfig, mergeConfigs, parseConfigDocument } from './config-validation';
import { ConfigLayer, ConfigProblem, LocationConfig } from './config.types';
import { locationConfigConfig, LocationConfigConfig } from './location-config.config';

/** Per directory, in order; a later file overrides an earlier one (opencode's order, then ours, which wins). */
const PROJECT_FILES = ['opencode.jsonc', 'opencode.json', 'outpost.json'];
/** opencode's global files, in its order. */
const OPENCODE_GLOBAL_FILES = ['config.json', 'opencode.json', 'opencode.jsonc'];
/** `{file:path}`: a file's content, put in where the reference stands (relative to the config file). */
const FILE_REFERENCE = /\{file:([^}]+)\}/g;

/** Config that does not come from a file: the console's workspace config while the instance is signed in. */
export interface ConfigSource {
  /** Merged first, under every file. */
  layer(): ConfigLayer | undefined;
  /** Applied after merging, and only ever tightens: whether a provider (or `provider/model`) may be used. */
  allows(provider: string, model?: string): boolean;
  /** Values of `{env:NAME}` only this process holds (the console's access token), never in a file or the env. */
  secret(name: string): string | undefined;
}

/**
 * Reads and validates the config of a location: the global `outpost.json`, then the project root's files, then
 * the location directory's. A broken file never fails the location: it is skipped (or partly applied) and the
 * problem is logged and kept in `problems`. Results are cached per directory until `forget`.
 */
@Injectable()
export class LocationConfigService {
  private readonly logger = new Logger(LocationConfigService.name);
  private readonly cache: LocationCache<LocationConfig>;

  private readonly sources: ConfigSource[] = [];

  constructor(
    @Inject(locationConfigConfig.KEY) private readonly settings: LocationConfigConfig,
    locations: LocationsService,
  ) {
    this.cache = locations.cache({ build: (location) => this.load(location) });
  }

  /** Adds a source of config that is not a file; `forget()` when what it gives changes. */
  addSource(source: ConfigSource): void {
    this.sources.push(source);
  }

  /** A `{env:NAME}` value a source holds in memory, else the environment's. */
  env(name: string): string | undefined {
    for (const source of this.sources) {
      const value = source.secret(name);
      if (value !== undefined) return value;
    }
    return process.env[name];
  }

  /** The global config directory (`OUTPOST_CONFIG_DIR`). */
  get globalDir(): string {
    return this.settings.globalDir;
  }

  /** The merged config of a location (agents, plugins, provider, permissions), with its layers and problems. */
  get(location: ResolvedLocation): Promise<LocationConfig> {
    return this.cache.get(location);
  }

  forget(directory?: string): void {
    this.cache.forget(directory);
  }

  private async load(location: ResolvedLocation): Promise<LocationConfig> {
    const { opencodeGlobalDir, globalDir, opencodeConfig } = this.settings;
    const files: Array<{ file: string; scope: ConfigLayer['scope'] }> = [
      ...OPENCODE_GLOBAL_FILES.map((name) => ({
        file: join(opencodeGlobalDir, name),
        scope: 'global' as const,
      })),
      { file: join(globalDir, 'outpost.json'), scope: 'global' },
      ...(opencodeConfig ? [{ file: opencodeConfig, scope: 'global' as const }] : []),
    ];
    // Every directory from the project's root down to the location: a deeper file overrides a shallower one.
    for (const dir of directoriesDown(location.project.directory, location.directory)) {
      for (const name of PROJECT_FILES) files.push({ file: join(dir, name), scope: 'project' });
    }
    const layers: ConfigLayer[] = [];
    for (const source of this.sources) {
      const layer = source.layer();
      if (layer) layers.push(layer);
    }
    const problems: ConfigProblem[] = [];
    for (const { file, scope } of files) {
      const layer = await this.readLayer(file, scope, problems);
      if (layer) layers.push(layer);
    }
    const content = this.settings.opencodeConfigContent;
    if (content !== undefined) {
      const layer = await this.parseLayer(
        content,
        'OPENCODE_CONFIG_CONTENT',
        location.directory,
        'global',
        problems,
      );
      if (layer) layers.push(layer);
    }
    for (const problem of problems) {
      this.logger.warn(
        `Config problem in ${problem.file}${problem.path ? ` at ${problem.path}` : ''}: ${problem.message}`,
      );
    }
    const merged = layers.reduce((acc, layer) => mergeConfigs(acc, layer.config), emptyConfig());
    merged.provider = enabledProviders(this.allowedProviders(merged.provider), merged);
    return { merged, layers, problems };
  }

  /** The providers and models every source allows (a console's policies can only take away). */
  private allowedProviders(providers: Record<string, unknown>): Record<string, unknown> {
    if (this.sources.length === 0) return providers;
    const allowed: Record<string, unknown> = {};
    for (const [id, value] of Object.entries(providers)) {
      if (!this.sources.every((source) => source.allows(id))) continue;
      const provider = value as { models?: Record<string, unknown> };
      if (!provider || typeof provider !== 'object' || !provider.models) {
        allowed[id] = value;
        continue;
      }
      const models = Object.fromEntries(
        Object.entries(provider.models).filter(([model]) =>
          this.sources.every((source) => source.allows(id, model)),
        ),
      );
      allowed[id] = { ...provider, models };
    }
    return allowed;
  }

  private async readLayer(
    file: string,
    scope: ConfigLayer['scope'],
    problems: ConfigProblem[],
  ): Promise<ConfigLayer | undefined> {
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT' && code !== 'ENOTDIR') {
        problems.push({ file, message: `cannot be read (${code ?? String(error)})` });
      }
      return undefined;
    }
    return this.parseLayer(text, file, dirname(file), scope, problems);
  }

  private async parseLayer(
    written: string,
    file: string,
    baseDir: string,
    scope: ConfigLayer['scope'],
    problems: ConfigProblem[],
  ): Promise<ConfigLayer | undefined> {
    const text = await withFiles(written, baseDir, (message) => problems.push({ file, message }));
    const errors: ParseError[] = [];
    const raw: unknown = parseJsonc(text, errors, { allowTrailingComma: true, disallowComments: false });
    if (errors.length > 0) {
      const { error, offset } = errors[0];
      const line = text.slice(0, offset).split('\n').length;
      problems.push({ file, message: `is not valid JSON: ${printParseErrorCode(error)} at line ${line}` });
      return undefined;
    }
    const { config, problems: found } = parseConfigDocument(raw, baseDir);
    for (const problem of found)
      problems.push({ file, ...(problem.path ? { path: problem.path } : {}), message: problem.message });
    return { file, scope, config };
  }
}

/** `from`, then each directory below it down to `to` (just `from` when `to` is not inside it). */
function directoriesDown(from: string, to: string): string[] {
  const dirs = [from];
  const rest = relative(from, to);
  if (!rest || rest.startsWith('..') || isAbsolute(rest)) return dirs;
  let at = from;
  for (const part of rest.split(sep)) dirs.push((at = join(at, part)));
  return dirs;
}

/**
 * Puts each `{file:path}` reference's content in (trimmed, escaped for a JSON string), as opencode does; a file
 * that cannot be read is reported and its reference left empty, so the rest of the config still loads.
 */
async function withFiles(text: string, baseDir: string, report: (message: string) => void): Promise<string> {
  const references = [...text.matchAll(FILE_REFERENCE)];
  if (references.length === 0) return text;
  const contents = new Map<string, string>();
  for (const [reference, path] of references) {
    if (contents.has(reference)) continue;
    const target = path.startsWith('~/') ? join(homedir(), path.slice(2)) : resolve(baseDir, path);
    const content = await readFile(target, 'utf8').then(
      (read) => JSON.stringify(read.trim()).slice(1, -1),
      (error: NodeJS.ErrnoException) => {
        report(`${reference}: ${target} cannot be read (${error.code ?? error.message})`);
        return '';
      },
    );
    contents.set(reference, content);
  }
  return text.replace(FILE_REFERENCE, (reference) => contents.get(reference) ?? '');
}

/** opencode's `disabled_providers` (never loaded) and `enabled_providers` (only these, when given). */
function enabledProviders(
  providers: Record<string, unknown>,
  config: { enabledProviders?: string[]; disabledProviders?: string[] },
): Record<string, unknown> {
  const disabled = new Set(config.disabledProviders ?? []);
  const enabled = config.enabledProviders ? new Set(config.enabledProviders) : undefined;
  return Object.fromEntries(
    Object.entries(providers).filter(([id]) => !disabled.has(id) && (!enabled || enabled.has(id))),
  );
}
