import { Injectable, Logger } from '@nestjs/common';
import { basename } from 'node:path';
import semver from 'semver';
import { InvalidRequestError, ServiceUnavailableError } from '@/common/errors';
import { EventsPublisher } from '@/common/events';
import { AgentConfig } from '../location-config/config.types';
import { LocationConfigService } from '../location-config/location-config.service';
import { LocationCache } from '../locations/location-cache';
import { ResolvedLocation } from '../locations/location.types';
import { LocationsService } from '../locations/locations.service';
import { Installation, PackageInstaller } from './package-installer';
import { NpmClient, RegistryUnreachableError } from './npm.client';
import { loadPlugin } from './plugin-loader';
import { newestMatching, parsePluginSpec, PluginSpec } from './plugin-spec';
import { PluginInfo } from './plugin.types';
import { PluginUpdateFailedError } from './plugins.errors';

type PackageSpec = Extract<PluginSpec, { kind: 'package' }>;

/** A configured plugin as loaded at one location. */
interface LoadedPlugin {
  spec: PluginSpec;
  id?: string;
  version?: string;
  error?: string;
  agents: Array<{ id: string; config: AgentConfig }>;
}

/** What is known of a package target across locations. */
interface PackageState {
  installation?: Installation;
  outdated: boolean;
  updating: number;
}

const BUILTIN: PluginInfo = {
  id: 'outpost.agent',
  source: { type: 'builtin' },
  features: { server: true },
  state: { status: 'active' },
};

/** Called after plugin.update switched targets, with the directories of the locations that use them. */
export type PluginsSwitchedListener = (directories: string[]) => Promise<void>;

/**
 * The plugins of each location (from its config), package plugins installed once per target and shared,
 * update checks against the registry, and updates that switch over only when the new version loads.
 */
@Injectable()
export class PluginsService {
  private readonly logger = new Logger(PluginsService.name);
  private readonly packages = new Map<string, PackageState>();
  private readonly queues = new Map<string, Promise<unknown>>();
  private readonly cache: LocationCache<LoadedPlugin[]>;
  private switched: PluginsSwitchedListener = async () => undefined;

  constructor(
    private readonly configs: LocationConfigService,
    private readonly installer: PackageInstaller,
    private readonly npm: NpmClient,
    private readonly events: EventsPublisher,
    locations: LocationsService,
  ) {
    this.cache = locations.cache({
      build: (location) => this.load(location),
      onRebuilt: (location, before, after) => {
        if (JSON.stringify(before.map(fingerprint)) !== JSON.stringify(after.map(fingerprint))) {
          this.events.publish('plugin.updated', {}, location);
        }
      },
    });
  }

  /** The location reload registers here, so updated plugins are reloaded where they are used. */
  onSwitched(listener: PluginsSwitchedListener): void {
    this.switched = listener;
  }

  async list(location: ResolvedLocation): Promise<PluginInfo[]> {
    return [BUILTIN, ...(await this.cache.get(location)).map((plugin) => this.info(plugin))];
  }

  /** The agents the location's active plugins add, in plugin order. */
  async agents(location: ResolvedLocation): Promise<Array<{ id: string; config: AgentConfig }>> {
    return (await this.cache.get(location)).flatMap((plugin) => plugin.agents);
  }

  forget(directory?: string): void {
    this.cache.forget(directory);
  }

  /** Asks the registry for the newest version of one package plugin or all of them; marks `outdated`. */
  async check(location: ResolvedLocation, target?: string | null): Promise<PluginInfo[]> {
    const loaded = await this.cache.get(location);
    const chosen =
      target === undefined || target === null
        ? loaded.filter((p): p is LoadedPlugin & { spec: PackageSpec } => p.spec.kind === 'package')
        : [this.findPackage(loaded, target, 'target')];
    await Promise.all(chosen.map((plugin) => this.checkOne(plugin.spec, plugin.version)));
    return this.list(location);
  }

  /**
   * Updates package plugins concurrently, each into a fresh directory, switched over only once it installed and
   * loaded; then reloads the locations that use them. Fails with 503 naming each target that failed.
   */
  async update(location: ResolvedLocation, targets: string[]): Promise<void> {
    const loaded = await this.cache.get(location);
    const specs = new Map<string, PackageSpec>();
    for (const target of targets) {
      const spec = this.findPackage(loaded, target, 'targets').spec;
      specs.set(spec.target, spec);
    }
    const results = await Promise.allSettled([...specs.values()].map((spec) => this.updateOne(spec)));
    const switched: string[] = [];
    const failed: Array<{ target: string; error: string }> = [];
    [...specs.keys()].forEach((target, i) => {
      const result = results[i];
      if (result.status === 'fulfilled') switched.push(target);
      else failed.push({ target, error: errorText(result.reason) });
    });
    for (const failure of failed)
      this.logger.warn(`Plugin update of ${failure.target} failed: ${failure.error}`);
    if (switched.length > 0) await this.switched(await this.locationsUsing(switched));
    if (failed.length > 0) throw new PluginUpdateFailedError(failed);
  }

  private async locationsUsing(targets: string[]): Promise<string[]> {
    const using: string[] = [];
    for (const directory of this.cache.directories()) {
      const plugins = await this.cache.peek(directory)?.catch(() => []);
      if (plugins?.some((p) => targets.includes(p.spec.target))) using.push(directory);
    }
    return using;
  }

  private async load(location: ResolvedLocation): Promise<LoadedPlugin[]> {
    const { merged } = await this.configs.get(location);
    return Promise.all(
      merged.plugins.map(async (entry): Promise<LoadedPlugin> => {
        const spec = parsePluginSpec(entry);
        try {
          if (spec.kind === 'invalid') throw new Error(spec.error);
          if (spec.kind === 'local') {
            const plugin = await loadPlugin(spec.path, true);
            return { spec, id: plugin.name ?? basename(spec.path), agents: plugin.agents };
          }
          const installation = await this.ensureInstalled(spec);
          const { plugin, version } = installation;
          return { spec, id: plugin.name ?? spec.name, version, agents: plugin.agents };
        } catch (error) {
          this.logger.warn(`Plugin ${spec.target} at ${location.directory} failed: ${errorText(error)}`);
          return { spec, error: errorText(error), agents: [] };
        }
      }),
    );
  }

  private info(plugin: LoadedPlugin): PluginInfo {
    const state: PluginInfo['state'] = plugin.error
      ? { status: 'failed', error: plugin.error }
      : { status: 'active' };
    const features: PluginInfo['features'] = plugin.error ? {} : { server: true };
    const id = plugin.id ? { id: plugin.id } : {};
    const { spec } = plugin;
    if (spec.kind === 'local') return { ...id, source: { type: 'local', path: spec.path }, features, state };
    const live = this.packages.get(spec.target);
    return {
      ...id,
      source: {
        type: 'package',
        target: spec.target,
        ...(plugin.version ? { version: plugin.version } : {}),
        ...(live?.outdated ? { outdated: true as const } : {}),
        ...(live?.updating ? { updating: true as const } : {}),
      },
      features,
      state,
    };
  }

  private findPackage(
    loaded: LoadedPlugin[],
    target: string,
    field: string,
  ): LoadedPlugin & { spec: PackageSpec } {
    const plugin = loaded.find(
      (p) => p.spec.target === target || (p.spec.kind === 'package' && p.spec.name === target),
    );
    if (!plugin) throw new InvalidRequestError(`Not a plugin of this location: ${target}`, field);
    if (plugin.spec.kind === 'invalid') {
      throw new InvalidRequestError(`Plugin ${target} is not valid: ${plugin.spec.error}`, field);
    }
    if (plugin.spec.kind !== 'package') {
      throw new InvalidRequestError(`Not a package plugin: ${target}`, field);
    }
    return plugin as LoadedPlugin & { spec: PackageSpec };
  }

  private state(target: string): PackageState {
    let state = this.packages.get(target);
    if (!state) {
      state = { outdated: false, updating: 0 };
      this.packages.set(target, state);
    }
    return state;
  }

  private async checkOne(spec: PackageSpec, loadedVersion?: string): Promise<void> {
    let packument;
    try {
      packument = await this.npm.packument(spec.name);
    } catch (error) {
      if (error instanceof RegistryUnreachableError)
        throw new ServiceUnavailableError(error.message, 'registry');
      throw error;
    }
    const state = this.state(spec.target);
    const installed = state.installation?.version ?? loadedVersion;
    if (!packument || !installed) return;
    const newest = newestMatching(spec.range, packument.versions, packument.distTags);
    state.outdated = !!newest && semver.valid(newest) !== null && semver.gt(newest, installed);
  }

  /** The active install of a target; installed now when there is none yet (first use). */
  private ensureInstalled(spec: PackageSpec): Promise<Installation> {
    return this.exclusive(spec.target, async () => {
      const state = this.state(spec.target);
      if (state.installation) return state.installation;
      let installation = await this.installer.current(spec.target, spec.name);
      if (!installation) {
        installation = await this.installer.installFresh(spec.target, spec.name, spec.range);
        await this.installer.activate(spec.target, installation);
      }
      state.installation = installation;
      return installation;
    });
  }

  private async updateOne(spec: PackageSpec): Promise<void> {
    const state = this.state(spec.target);
    state.updating += 1;
    try {
      await this.exclusive(spec.target, async () => {
        const previous = state.installation ?? (await this.installer.current(spec.target, spec.name));
        const next = await this.installer.installFresh(spec.target, spec.name, spec.range);
        await this.installer.activate(spec.target, next, previous);
        state.installation = next;
        state.outdated = false;
      });
    } finally {
      state.updating -= 1;
    }
  }

  /** Runs one job per target at a time (install, update), in arrival order. */
  private exclusive<T>(key: string, job: () => Promise<T>): Promise<T> {
    const run = (this.queues.get(key) ?? Promise.resolve()).catch(() => undefined).then(job);
    const tail = run.catch(() => undefined);
    this.queues.set(key, tail);
    void tail.then(() => {
      if (this.queues.get(key) === tail) this.queues.delete(key);
    });
    return run;
  }
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** What a location's plugin list is, for noticing a change: not the live `outdated`/`updating` marks. */
function fingerprint(plugin: LoadedPlugin): unknown {
  return [plugin.spec.target, plugin.id, plugin.version, plugin.error, plugin.agents];
}
