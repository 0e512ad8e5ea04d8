import { BeforeApplicationShutdown, Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { ServiceUnavailableError } from '@/common/errors';
import { EventsPublisher } from '@/common/events';
import { AgentsService } from '../agents/agents.service';
import { LocationConfigService } from '../location-config/location-config.service';
import { ResolvedLocation } from '../locations/location.types';
import { LocationsService } from '../locations/locations.service';
import { PluginsService } from '../plugins/plugins.service';

/** Work to do when a location shuts down, e.g. rejecting its pending permission requests and forms. */
export type LocationShutdownHook = (location: ResolvedLocation) => void | Promise<void>;

/**
 * location.reload: shuts down every loaded location (shutdown hooks, cached config, plugins and agents dropped,
 * `location.shutdown` published) and rebuilds it; settles when every rebuild has. A reload that arrives while one
 * runs joins it. Plugin updates reload the locations that use the updated plugins the same way.
 */
@Injectable()
export class LocationReloadService implements OnModuleInit, BeforeApplicationShutdown {
  private readonly logger = new Logger(LocationReloadService.name);
  private readonly hooks = new Set<LocationShutdownHook>();
  private running?: Promise<void>;
  private stopping = false;

  constructor(
    private readonly locations: LocationsService,
    private readonly configs: LocationConfigService,
    private readonly plugins: PluginsService,
    private readonly agents: AgentsService,
    private readonly events: EventsPublisher,
  ) {}

  onModuleInit(): void {
    this.plugins.onSwitched((directories) => this.reloadDirectories(directories));
  }

  beforeApplicationShutdown(): void {
    this.stopping = true;
  }

  /** Registers shutdown work (the prompt loop rejects pending permissions here); returns the unregister call. */
  onLocationShutdown(hook: LocationShutdownHook): () => void {
    this.hooks.add(hook);
    return () => this.hooks.delete(hook);
  }

  reload(): Promise<void> {
    if (this.stopping) throw new ServiceUnavailableError('The server is shutting down', 'server');
    this.running ??= this.reloadDirectories(this.locations.all().map((l) => l.directory)).finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  /** A reload that starts after this call (not one already under way, which may have read files before a write). */
  async reloadAfterChange(): Promise<void> {
    await this.running;
    return this.reload();
  }

  private async reloadDirectories(directories: string[]): Promise<void> {
    await Promise.allSettled(directories.map((directory) => this.rebuild(directory)));
  }

  private async rebuild(directory: string): Promise<void> {
    try {
      const location = await this.locations.resolve(directory);
      for (const hook of this.hooks) {
        await Promise.resolve()
          .then(() => hook(location))
          .catch((error) => this.logger.warn(`A shutdown hook of ${directory} failed: ${String(error)}`));
      }
      this.agents.forget(directory);
      this.plugins.forget(directory);
      this.configs.forget(directory);
      this.events.publish('location.shutdown', {}, location);
      // Agents read the config and the plugins, so this rebuilds all three.
      await this.agents.list(location);
    } catch (error) {
      this.logger.warn(
        `Reloading ${directory} failed: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  }
}
