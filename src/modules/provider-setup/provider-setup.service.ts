import { Inject, Injectable } from '@nestjs/common';
import { applyEdits, modify, parse, ParseError } from 'jsonc-parser';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ConflictError } from '@/common/errors';
import { appConfig, AppConfig } from '@/config/app.config';
import { ConfigSource, LocationConfigService } from '../location-config/location-config.service';
import type { ProviderConfig, ProviderPackage } from '../runtime/providers/provider-config';
import { AddedProviderDto, AddProviderDto, ProviderKind } from './dto/add-provider.dto';
import { keyName } from '../runtime/providers/provider-key-name';
import { keysChanged, readKeys, removeKey, writeKey } from './provider-keys.store';

const PACKAGES: Record<ProviderKind, ProviderPackage> = {
  openai: 'aisdk:@ai-sdk/openai',
  anthropic: 'aisdk:@ai-sdk/anthropic',
  'openai-compatible': 'aisdk:@ai-sdk/openai-compatible',
};

/**
 * Providers added from the web app's Models page: the provider goes into the global `outpost.json` (every
 * location reads it) with its key as a `{env:OUTPOST_KEY_<ID>}` reference; the key itself goes into the data
 * folder (mode 0600), and this source answers the reference from there.
 */
@Injectable()
export class ProviderSetupService implements ConfigSource {
  private keys: Record<string, string> = {};
  /** The keys file's change time when `keys` was read: another process (a node sharing the folder) may write it. */
  private keysRead = -1;

  constructor(
    @Inject(appConfig.KEY) private readonly app: AppConfig,
    private readonly configs: LocationConfigService,
  ) {
    this.readKeys();
    configs.addSource(this);
  }

  layer(): undefined {
    return undefined;
  }

  allows(): boolean {
    return true;
  }

  secret(name: string): string | undefined {
    this.readKeys();
    return Object.hasOwn(this.keys, name) ? this.keys[name] : undefined;
  }

  /**
   * opencode's `auth set` (`PUT /auth/{providerID}` `{type: "api", key}`): the provider's key kept with the Models
   * page's keys; a provider configured without an `apiKey` uses it from its next model call (keys are read each
   * time a model is resolved, so nothing needs to reload).
   */
  setKey(providerID: string, key: string): void {
    writeKey(this.app.dataDir, keyName(providerID), key);
    this.readKeys(true);
  }

  /** opencode's `auth remove`: the provider's stored key goes (nothing to remove is no error, as in opencode). */
  removeKey(providerID: string): void {
    removeKey(this.app.dataDir, keyName(providerID));
    this.readKeys(true);
  }

  add(body: AddProviderDto): AddedProviderDto {
    const reference = keyName(body.id);
    const provider: ProviderConfig = {
      name: body.name?.trim() || body.id,
      package: PACKAGES[body.kind],
      settings: { ...(body.baseURL ? { baseURL: body.baseURL } : {}), apiKey: `{env:${reference}}` },
      models: Object.fromEntries(body.models.map((id) => [id, { name: id }])),
    };
    // The key first: the reference resolves from the moment the config names it.
    writeKey(this.app.dataDir, reference, body.apiKey);
    this.readKeys(true);
    const configFile = this.writeProvider(body.id, provider);
    this.configs.forget();
    return {
      id: body.id,
      package: provider.package,
      models: body.models,
      keyReference: `{env:${reference}}`,
      configFile,
    };
  }

  /** The keys as the file has them now (read again when it changed, or after this process wrote it). */
  private readKeys(force = false): void {
    const changed = keysChanged(this.app.dataDir);
    if (changed === this.keysRead && !force) return;
    this.keysRead = changed;
    this.keys = readKeys(this.app.dataDir);
  }

  /** Sets `provider.<id>` in the global outpost.json, keeping the rest of the file (comments too) as it was. */
  private writeProvider(id: string, provider: ProviderConfig): string {
    const dir = this.configs.globalDir;
    const file = join(dir, 'outpost.json');
    mkdirSync(dir, { recursive: true });
    const text = existsSync(file) ? readFileSync(file, 'utf8') : '{}\n';
    const errors: ParseError[] = [];
    const current = parse(text, errors, { allowTrailingComma: true }) as unknown;
    if (errors.length > 0 || current === null || typeof current !== 'object' || Array.isArray(current)) {
      throw new ConflictError(`${file} is not a JSON object; fix it, then add the provider again`, 'config');
    }
    const edits = modify(text, ['provider', id], provider, {
      formattingOptions: { insertSpaces: true, tabSize: 2, eol: '\n' },
    });
    writeFileSync(file, applyEdits(text, edits));
    return file;
  }
}
