import { FILE_MODALITIES, FileModality } from './history';
import { providerFamily } from './model-family';
import { fromOpencodeShape } from './opencode-provider';
import { PROVIDER_PACKAGES, ProviderPackage } from './provider-packages';

export { PROVIDER_PACKAGES, type ProviderPackage } from './provider-packages';

/** Prices in USD per million tokens. `cache_read` / `cache_write` default to `input`. */
export interface ModelCost {
  input: number;
  output: number;
  cache_read?: number;
  cache_write?: number;
}

export interface ModelLimit {
  context?: number;
  output?: number;
}

export interface ModelConfig {
  name?: string;
  cost?: ModelCost;
  limit?: ModelLimit;
  /** What the model takes besides text (opencode's `modalities.input`): `image`, `pdf`. */
  modalities?: { input?: string[] };
  /** Named provider options (e.g. `{ "high": { "reasoningEffort": "high" } }`), picked by `Model.Ref.variant`. */
  variants?: Record<string, Record<string, unknown>>;
}

/** Strings may hold `{env:NAME}`, replaced from the environment each time a model is built. */
export interface ProviderSettings {
  baseURL?: string;
  apiKey?: string;
}

export interface ProviderConfig {
  name?: string;
  package: ProviderPackage;
  settings?: ProviderSettings;
  headers?: Record<string, string>;
  models: Record<string, ModelConfig>;
}

/** The config's `provider` map, keyed by provider id. Same shape as the console's workspace config. */
export type ProviderConfigMap = Record<string, ProviderConfig>;

export interface ParsedProviders {
  providers: ProviderConfigMap;
  /** One line per provider or model left out, naming it and the problem. */
  problems: string[];
}

/**
 * Checks the config's `provider` map, in Outpost's shape or opencode's (`npm`, `options`: opencode-provider.ts).
 * A broken provider or model is left out and reported, so one bad entry does not take the location down.
 */
export function parseProviders(raw: unknown): ParsedProviders {
  const providers: ProviderConfigMap = {};
  const problems: string[] = [];
  if (raw === undefined || raw === null) return { providers, problems };
  if (!isObject(raw)) return { providers, problems: ['provider: must be an object keyed by provider id'] };
  for (const [id, written] of Object.entries(raw)) {
    const { entry, notes } = fromOpencodeShape(id, written);
    for (const note of notes) problems.push(`provider.${id}.${note}`);
    if (entry === undefined) continue;
    const problem = providerProblem(entry);
    if (problem) {
      problems.push(`provider.${id}: ${problem}`);
      continue;
    }
    const provider = entry as ProviderConfig;
    const models: Record<string, ModelConfig> = {};
    for (const [modelID, model] of Object.entries(provider.models)) {
      const modelProblem = modelConfigProblem(model);
      if (modelProblem) problems.push(`provider.${id}.models.${modelID}: ${modelProblem}`);
      else models[modelID] = model as ModelConfig;
    }
    providers[id] = { ...provider, models };
  }
  return { providers, problems };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isStringMap(value: unknown): boolean {
  return isObject(value) && Object.values(value).every((v) => typeof v === 'string');
}

function providerProblem(entry: unknown): string | undefined {
  if (!isObject(entry)) return 'must be an object';
  if (!PROVIDER_PACKAGES.includes(entry.package as ProviderPackage)) {
    return `package must be one of ${PROVIDER_PACKAGES.join(', ')}`;
  }
  if (entry.name !== undefined && typeof entry.name !== 'string') return 'name must be a string';
  if (entry.settings !== undefined && !isStringMap(entry.settings))
    return 'settings must map names to strings';
  if (entry.headers !== undefined && !isStringMap(entry.headers)) return 'headers must map names to strings';
  if (!isObject(entry.models)) return 'models must be an object keyed by model id';
  return undefined;
}

function modelConfigProblem(model: unknown): string | undefined {
  if (!isObject(model)) return 'must be an object';
  if (model.name !== undefined && typeof model.name !== 'string') return 'name must be a string';
  const price = model.cost;
  if (price !== undefined) {
    if (!isObject(price)) return 'cost must be an object';
    for (const key of ['input', 'output', 'cache_read', 'cache_write']) {
      const value = price[key];
      const required = key === 'input' || key === 'output';
      if (value === undefined && !required) continue;
      if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
        return `cost.${key} must be a number of USD per million tokens`;
      }
    }
  }
  if (model.limit !== undefined) {
    if (!isObject(model.limit)) return 'limit must be an object';
    for (const [key, value] of Object.entries(model.limit)) {
      if (typeof value !== 'number' || !Number.isInteger(value) || value <= 0) {
        return `limit.${key} must be a positive integer`;
      }
    }
  }
  if (model.modalities !== undefined) {
    const input = isObject(model.modalities) ? model.modalities.input : undefined;
    if (input !== undefined && !(Array.isArray(input) && input.every((item) => typeof item === 'string'))) {
      return 'modalities.input must be a list such as ["text", "image", "pdf"]';
    }
    if (!isObject(model.modalities)) return 'modalities must be an object';
  }
  if (
    model.variants !== undefined &&
    (!isObject(model.variants) || !Object.values(model.variants).every(isObject))
  ) {
    return 'variants must map names to objects';
  }
  return undefined;
}

/**
 * The attachments a model takes: what its `modalities.input` lists, else what its family takes (Claude and
 * OpenAI's models: images and PDFs; any other model, such as one behind an OpenAI-compatible server: only text).
 */
export function acceptedFiles(
  provider: ProviderConfig | undefined,
  model: ModelConfig,
  modelID: string,
): ReadonlySet<FileModality> {
  const listed = model.modalities?.input;
  if (listed) return new Set(listed.filter((kind): kind is FileModality => FILE_MODALITIES.has(kind)));
  return providerFamily(provider?.package, modelID) === 'other' ? new Set() : new Set(['image', 'pdf']);
}
