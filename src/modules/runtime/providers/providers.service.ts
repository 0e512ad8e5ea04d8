import { Injectable, Logger } from '@nestjs/common';
import { LocationConfigService } from '../../location-config/location-config.service';
import { LocationConfig } from '../../location-config/config.types';
import { ResolvedLocation } from '../../locations/location.types';
import { parseProviders } from './provider-config';
import { ProviderRegistry } from './provider-registry';

/**
 * The providers of a location, from its merged config. One registry per loaded config, so a reload (which
 * drops the config) brings a new one; broken entries are logged once per load and left out.
 */
@Injectable()
export class ProvidersService {
  private readonly logger = new Logger(ProvidersService.name);
  private readonly registries = new WeakMap<LocationConfig, ProviderRegistry>();

  constructor(private readonly configs: LocationConfigService) {}

  async forLocation(location: ResolvedLocation): Promise<ProviderRegistry> {
    const config = await this.configs.get(location);
    let registry = this.registries.get(config);
    if (!registry) {
      const { providers, problems } = parseProviders(config.merged.provider);
      for (const problem of problems)
        this.logger.warn(`Provider config of ${location.directory}: ${problem}`);
      // `{env:NAME}` is read when a model is built: the environment, or a value a config source holds in memory.
      const env = new Proxy({} as NodeJS.ProcessEnv, {
        get: (_target, name) => this.configs.env(String(name)),
      });
      registry = new ProviderRegistry(providers, env, config.merged.model);
      this.registries.set(config, registry);
    }
    return registry;
  }
}
