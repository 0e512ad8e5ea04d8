import { Injectable } from '@nestjs/common';
import { FieldProblem, isRecord } from '../location-config/config-validation';
import { ConfigFilesService } from '../location-config/config-files.service';
import { LocationReloadService } from '../location-reload/location-reload.service';
import { LocationsService } from '../locations/locations.service';
import { ProviderSetupService } from '../provider-setup/provider-setup.service';
import { parseProviders } from '../runtime/providers/provider-config';

/** Provider members that hold credentials: never sent back, whatever file holds them. */
const CREDENTIALS = new Set(['apiKey', 'headers']);

/**
 * opencode's config and credential writes: `config.update` and `global.config.update` merge into the location's
 * `opencode.json` or opencode's global file, then every location reloads so the change takes effect;
 * `auth.set` and `auth.remove` keep a provider's API key in the data folder (provider-keys.json, mode 0600).
 */
@Injectable()
export class V1SettingsService {
  constructor(
    private readonly locations: LocationsService,
    private readonly files: ConfigFilesService,
    private readonly reloads: LocationReloadService,
    private readonly keys: ProviderSetupService,
  ) {}

  async updateConfig(patch: unknown, directory?: string): Promise<Record<string, unknown>> {
    const location = await this.locations.resolve(directory);
    return this.update(this.files.projectFile(location), patch);
  }

  updateGlobalConfig(patch: unknown): Promise<Record<string, unknown>> {
    return this.update(this.files.globalFile(), patch);
  }

  setKey(providerID: string, key: string): true {
    this.keys.setKey(providerID, key);
    return true;
  }

  removeKey(providerID: string): true {
    this.keys.removeKey(providerID);
    return true;
  }

  private async update(file: string, patch: unknown): Promise<Record<string, unknown>> {
    const merged = await this.files.merge(file, patch, providerProblems);
    await this.reloads.reloadAfterChange();
    return withoutCredentials(merged);
  }
}

/** The providers as the runtime reads them: a problem names its field (`provider.x.models.y`). */
function providerProblems(document: Record<string, unknown>): FieldProblem[] {
  return parseProviders(document.provider).problems.map((problem) => {
    const at = /^([^\s:]+):\s*(.*)$/.exec(problem);
    return at ? { path: at[1], message: at[2] } : { path: 'provider', message: problem };
  });
}

/** The document without the providers' keys and headers (GET /config shows none either). */
function withoutCredentials(document: Record<string, unknown>): Record<string, unknown> {
  const providers = document.provider;
  if (!isRecord(providers)) return document;
  const strip = (value: unknown): unknown => {
    if (!isRecord(value)) return value;
    return Object.fromEntries(
      Object.entries(value)
        .filter(([member]) => !CREDENTIALS.has(member))
        .map(([member, inner]) => [member, member === 'models' ? inner : strip(inner)]),
    );
  };
  return {
    ...document,
    provider: Object.fromEntries(Object.entries(providers).map(([id, p]) => [id, strip(p)])),
  };
}
