import { createAnthropic } from '@ai-sdk/anthropic';
import { createOpenAI } from '@ai-sdk/openai';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import type { LanguageModelV3 } from '@ai-sdk/provider';
import type { ModelRef } from '../../location-config/config.types';
import { substituteEnv } from './env-template';
import { keyName } from './provider-key-name';
import { ModelConfig, PROVIDER_PACKAGES, ProviderConfig, ProviderConfigMap } from './provider-config';
import { ModelNotFoundError, ProviderConfigError, ProviderNotFoundError } from './provider.errors';

export interface ResolvedModel {
  providerID: string;
  modelID: string;
  variant?: string;
  config: ModelConfig;
  language: LanguageModelV3;
  /** The variant's provider options, keyed by the provider's options key. */
  providerOptions?: Record<string, Record<string, unknown>>;
}

/**
 * Turns a location's `provider` map into AI SDK language models. Credentials are read from the environment
 * (`{env:NAME}`) each time a model is resolved, so a rotated key is picked up without a reload.
 */
export class ProviderRegistry {
  private readonly models = new Map<string, LanguageModelV3>();

  constructor(
    private readonly providers: ProviderConfigMap,
    private readonly env: NodeJS.ProcessEnv = process.env,
    /** The config's `model`: the default for a session and agent that name none. */
    private readonly preferred?: ModelRef,
  ) {}

  /** The configured providers, as the location's config has them (credentials still `{env:…}` templates). */
  configs(): ProviderConfigMap {
    return this.providers;
  }

  /** Whether the ref names a configured provider and model, without building anything. */
  has(ref: ModelRef): boolean {
    const provider = this.providers[ref.providerID];
    const model = provider?.models?.[ref.id];
    return !!model && (ref.variant === undefined || !!model.variants?.[ref.variant]);
  }

  /** For a session and agent that name none: the config's `model` when it is configured, else the first one. */
  first(): ModelRef | undefined {
    if (this.preferred && this.has(this.preferred)) return this.preferred;
    for (const [providerID, provider] of Object.entries(this.providers)) {
      const id = Object.keys(provider.models ?? {})[0];
      if (id !== undefined) return { providerID, id };
    }
    return undefined;
  }

  /** The model's config (price, limits) or a 400 naming what is unknown. */
  model(ref: ModelRef): ModelConfig {
    const provider = this.providers[ref.providerID];
    if (!provider) throw new ProviderNotFoundError(ref.providerID);
    const model = provider.models?.[ref.id];
    if (!model) throw new ModelNotFoundError(ref.providerID, ref.id);
    if (ref.variant !== undefined && !model.variants?.[ref.variant]) {
      throw new ModelNotFoundError(ref.providerID, ref.id, ref.variant);
    }
    return model;
  }

  resolve(ref: ModelRef): ResolvedModel {
    const config = this.model(ref);
    const provider = this.providers[ref.providerID];
    const language = this.build(ref.providerID, provider, ref.id);
    const options = ref.variant === undefined ? undefined : config.variants?.[ref.variant];
    return {
      providerID: ref.providerID,
      modelID: ref.id,
      ...(ref.variant === undefined ? {} : { variant: ref.variant }),
      config,
      language,
      ...(options ? { providerOptions: { [optionsKey(provider, ref.providerID)]: options } } : {}),
    };
  }

  private build(providerID: string, provider: ProviderConfig, modelID: string): LanguageModelV3 {
    const fail = (problem: string): never => {
      throw new ProviderConfigError(providerID, problem);
    };
    const text = (value: string | undefined) =>
      value === undefined
        ? undefined
        : substituteEnv(value, this.env, (name) => fail(`environment variable ${name} is not set`));
    const baseURL = text(provider.settings?.baseURL);
    // No key in the config: the one stored for the provider (opencode's `auth set`), if any.
    const apiKey =
      provider.settings?.apiKey === undefined
        ? this.env[keyName(providerID)]
        : text(provider.settings.apiKey);
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(provider.headers ?? {})) headers[name] = text(value)!;
    // Building a model builds its stream schemas, which costs more than a step's own work: reuse it while
    // the settings (after `{env:NAME}`) stay the same.
    const key = JSON.stringify([providerID, modelID, baseURL, apiKey, headers]);
    let model = this.models.get(key);
    if (!model) {
      model = this.create(providerID, provider, modelID, { baseURL, apiKey, headers }, fail);
      this.models.set(key, model);
    }
    return model;
  }

  private create(
    providerID: string,
    provider: ProviderConfig,
    modelID: string,
    { baseURL, apiKey, headers }: { baseURL?: string; apiKey?: string; headers: Record<string, string> },
    fail: (problem: string) => never,
  ): LanguageModelV3 {
    switch (provider.package) {
      case 'aisdk:@ai-sdk/openai-compatible':
        if (!baseURL) fail('settings.baseURL is required for @ai-sdk/openai-compatible');
        return createOpenAICompatible({
          name: providerID,
          baseURL: baseURL!,
          apiKey,
          headers,
          includeUsage: true,
        }).chatModel(modelID);
      case 'aisdk:@ai-sdk/openai':
        // Chat completions, which every OpenAI-compatible endpoint serves.
        return createOpenAI({ name: providerID, baseURL, apiKey, headers }).chat(modelID);
      case 'aisdk:@ai-sdk/anthropic':
        return createAnthropic({ name: providerID, baseURL, apiKey, headers })(modelID);
      default:
        return fail(
          `unknown package ${String(provider.package)}; use one of ${PROVIDER_PACKAGES.join(', ')}`,
        );
    }
  }
}

/** Providers read their options under the provider's key: `openai`, `anthropic`, or the compatible name. */
function optionsKey(provider: ProviderConfig, providerID: string): string {
  if (provider.package === 'aisdk:@ai-sdk/openai') return 'openai';
  if (provider.package === 'aisdk:@ai-sdk/anthropic') return 'anthropic';
  return providerID;
}
