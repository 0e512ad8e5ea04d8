import { configFromEnv } from '@/config/validate-env';
import { ConfigType } from '@nestjs/config';
import { readFileSync } from 'node:fs';
import { parse as parseYaml } from 'yaml';
import { ConfigError, int, optionalStr } from '@/config/env';
import { DEFAULT_PRICES, Prices } from './default-prices';
import { parseRoutes, Route } from './gateway-routes';
import { usdToMicroCents } from '@/common/money';
import { isModelKind, ModelKind, SCHEMAS, UpstreamSchema } from '../connections/catalogue-terms';

/**
 * The API of one gateway call: a provider's chat API, or one of the other endpoints an API family has (embeddings
 * and legacy completions of OpenAI's, token counting of Anthropic's), served by providers of that family.
 */
export type CallSchema =
  UpstreamSchema | 'openai-embeddings' | 'openai-completions' | 'anthropic-count-tokens';

/** The providers' schemas that serve each call schema. */
export const SERVED_BY: Record<CallSchema, readonly UpstreamSchema[]> = {
  'openai-chat': ['openai-chat'],
  'openai-responses': ['openai-responses'],
  anthropic: ['anthropic'],
  'openai-embeddings': ['openai-chat', 'openai-responses'],
  'openai-completions': ['openai-chat', 'openai-responses'],
  'anthropic-count-tokens': ['anthropic'],
};

export interface CatalogueModel {
  /** `<provider>/<model>`: what callers put in `model`. */
  id: string;
  provider: string;
  /** The model's id at the provider. */
  upstreamId: string;
  /** Micro-cents per million tokens. */
  prices: { input: bigint; output: bigint; cacheRead: bigint; cacheWrite: bigint };
  /** Most output tokens a request may ask for; the hold assumes this when `max_tokens` is absent. */
  maxOutput: number;
  kind?: ModelKind;
}

export interface CatalogueProvider {
  id: string;
  baseUrl: string;
  schema: UpstreamSchema;
  /**
   * The credentials, read from the environment variables the catalogue names (never from the file); several
   * rotate, a key the provider refuses or rate-limits sitting out a while.
   */
  credentials: string[];
  credentialEnv: string[];
}

export interface Catalogue {
  providers: Map<string, CatalogueProvider>;
  models: Map<string, CatalogueModel>;
  /** Names callers use, each served by deployments (catalogue models) and, failing those, fallbacks. */
  routes: Map<string, Route>;
}

const NAME = 'OUTPOST_GATEWAY_CONFIG';

function fail(problem: string): never {
  throw new ConfigError(NAME, problem);
}

/** USD per million tokens → micro-cents per million tokens; `fail` names the member when the value is wrong. */
export function priceOf(value: unknown, where: string, fail: (problem: string) => never): bigint {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0)
    fail(`${where} must be a number of USD ≥ 0`);
  return usdToMicroCents(value);
}

const price = (value: unknown, where: string) => priceOf(value, where, fail);

/** The operator's catalogue file (JSON or YAML), validated with one-line errors naming the member. */
export function parseCatalogue(text: string, env: Record<string, string | undefined>): Catalogue {
  let raw: unknown;
  try {
    raw = parseYaml(text); // YAML is a superset of JSON
  } catch (error) {
    fail(`file is not JSON or YAML: ${(error as Error).message.split('\n')[0]}`);
  }
  const providers = (raw as { providers?: unknown })?.providers;
  if (!providers || typeof providers !== 'object' || Array.isArray(providers))
    fail('file must have a `providers` map');
  const catalogue: Catalogue = { providers: new Map(), models: new Map(), routes: new Map() };
  for (const [id, value] of Object.entries(providers as Record<string, unknown>)) {
    const entry = value as Record<string, unknown>;
    const where = `providers.${id}`;
    if (!/^[a-z0-9][a-z0-9._-]*$/i.test(id))
      fail(`${where}: a provider id is letters, digits, ".", "_" or "-"`);
    if (typeof entry?.base_url !== 'string' || !/^https?:\/\//.test(entry.base_url))
      fail(`${where}.base_url must be an http(s) URL`);
    if (!SCHEMAS.includes(entry.schema as UpstreamSchema))
      fail(`${where}.schema must be one of ${SCHEMAS.join(', ')}`);
    const keyEnv = typeof entry.api_key_env === 'string' ? entry.api_key_env.split(',') : entry.api_key_env;
    if (
      !Array.isArray(keyEnv) ||
      keyEnv.length === 0 ||
      !keyEnv.every((name) => typeof name === 'string' && /^[A-Z_][A-Z0-9_]*$/.test(name.trim()))
    ) {
      fail(`${where}.api_key_env must name an environment variable (or a list of them)`);
    }
    const credentialEnv = (keyEnv as string[]).map((name) => name.trim());
    catalogue.providers.set(id, {
      id,
      baseUrl: entry.base_url.replace(/\/+$/, ''),
      schema: entry.schema as UpstreamSchema,
      credentials: credentialEnv.map((name) => env[name]).filter((key): key is string => !!key),
      credentialEnv,
    });
    const models = entry.models;
    if (!models || typeof models !== 'object' || Array.isArray(models))
      fail(`${where}.models must be a map of model ids`);
    for (const [modelId, modelValue] of Object.entries(models as Record<string, unknown>)) {
      const model = (modelValue ?? {}) as Record<string, unknown>;
      const at = `${where}.models.${modelId}`;
      const given = model.prices as Partial<Prices> | undefined;
      const known = DEFAULT_PRICES[String(model.upstream ?? modelId)];
      const prices = given ?? known;
      if (!prices) fail(`${at}.prices is needed: the default price table has no "${modelId}"`);
      const maxOutput = model.max_output ?? 32_000;
      if (typeof maxOutput !== 'number' || !Number.isInteger(maxOutput) || maxOutput < 1)
        fail(`${at}.max_output must be a whole number`);
      if (model.kind !== undefined && !isModelKind(model.kind)) fail(`${at}.kind must be chat or embedding`);
      catalogue.models.set(`${id}/${modelId}`, {
        id: `${id}/${modelId}`,
        provider: id,
        upstreamId: String(model.upstream ?? modelId),
        prices: {
          input: price(prices.input, `${at}.prices.input`),
          output: price(prices.output, `${at}.prices.output`),
          cacheRead: price(prices.cache_read ?? prices.input, `${at}.prices.cache_read`),
          cacheWrite: price(prices.cache_write ?? prices.input, `${at}.prices.cache_write`),
        },
        maxOutput,
        ...(isModelKind(model.kind) ? { kind: model.kind } : {}),
      });
    }
  }
  catalogue.routes = parseRoutes(
    (raw as { routes?: unknown }).routes,
    catalogue.models,
    catalogue.providers,
    fail,
  );
  return catalogue;
}

/** What one model call may hold, whatever the catalogue or the caller say (issue of memory and money). */
function parseLimits(env: Record<string, string | undefined>) {
  return {
    /** The output a request without a limit may produce while a budget applies to its caller. */
    defaultMaxTokens: int(env, 'OUTPOST_GATEWAY_DEFAULT_MAX_TOKENS', 4_096, 1, 1_000_000),
    /** The most of a provider's whole (not streamed) answer held in memory; a larger one is a 502. */
    maxResponseBytes: int(
      env,
      'OUTPOST_GATEWAY_MAX_RESPONSE_BYTES',
      32 * 1024 * 1024,
      1024,
      512 * 1024 * 1024,
    ),
    /** How long a call waits for the holds of calls in flight to be given back before a budget refuses it. */
    holdWaitMs: int(env, 'OUTPOST_GATEWAY_HOLD_WAIT_MS', 30_000, 0, 600_000),
  };
}

export function parseGatewayEnv(env: Record<string, string | undefined>) {
  const file = optionalStr(env, NAME);
  const limits = parseLimits(env);
  if (!file)
    return {
      catalogue: { providers: new Map(), models: new Map(), routes: new Map() } as Catalogue,
      file: undefined,
      ...limits,
    };
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    fail(`cannot read ${file} (${(error as NodeJS.ErrnoException).code})`);
  }
  return { catalogue: parseCatalogue(text, env), file, ...limits };
}

export const gatewayConfig = configFromEnv('gateway', parseGatewayEnv);
export type GatewayConfig = ConfigType<typeof gatewayConfig>;
