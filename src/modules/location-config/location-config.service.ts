import { Inject, Injectable, Logger } from '@nestjs/common';
import { ParseError, parse as parseJsonc, printParseErrorCode } from 'jsonc-parser';
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { LocationCache } from '../locations/location-cache';
import { ResolvedLocation } from '../locations/location.types';
import { LocationsService } from '../locations/locations.service';
import { emptyConfig, mergeConfigs, parseConfigDocument } from './config-validation';
import { ConfigLayer, ConfigProblem, LocationConfig } from './config.types';
import { locationConfigConfig, LocationConfigConfig } from './location-config.config';

/** Per directory, in order; a later file overrides an earlier one (opencode's names first, so ours win). */
const PROJECT_FILES = ['opencode.json', 'opencode.jsonc', 'outpost.json'];

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
    const files: Array<{ file: string; scope: ConfigLayer['scope'] }> = [
      { file: join(this.settings.globalDir, 'outpost.json'), scope: 'global' },
    ];
    const dirs = [location.project.directory];
    if (location.directory !== location.project.directory) dirs.push(location.directory);
    for (const dir of dirs) {
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
    for (const problem of problems) {
      this.logger.warn(
        `Config problem in ${problem.file}${problem.path ? ` at ${problem.path}` : ''}: ${problem.message}`,
      );
    }
    const merged = layers.reduce((acc, layer) => mergeConfigs(acc, layer.config), emptyConfig());
    merged.provider = this.allowedProviders(merged.provider);
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
    const errors: ParseError[] = [];
    const raw: unknown = parseJsonc(text, errors, { allowTrailingComma: true, disallowComments: false });
    if (errors.length > 0) {
      const { error, offset } = errors[0];
      const line = text.slice(0, offset).split('\n').length;
      problems.push({ file, message: `is not valid JSON: ${printParseErrorCode(error)} at line ${line}` });
      return undefined;
    }
    const { config, problems: found } = parseConfigDocument(raw, dirname(file));
    for (const problem of found)
      problems.push({ file, ...(problem.path ? { path: problem.path } : {}), message: problem.message });
    return { file, scope, config };
  }
}
