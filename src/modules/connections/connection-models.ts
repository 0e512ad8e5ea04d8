import { InvalidRequestError } from '@/common/errors';
import { usdToMicroCents } from '@/common/money';
import { StoredModels, StoredPrices } from './connection.entity';
import { isModelKind } from './catalogue-terms';

export const MAX_MODELS = 500;
/** A model id as callers send it in `model`: printable ASCII without spaces, e.g. `meta-llama/Llama-3-70b:free`. */
const MODEL_ID = /^[\x21-\x7E]{1,200}$/;
const PRICE_KEYS = ['input', 'output', 'cache_read', 'cache_write'] as const;
/** USD per million tokens; anything above is a typo. */
const MAX_PRICE = 100_000;

/** Prices in micro-cents per million tokens, as the gateway's catalogue holds them. */
export interface MicroCentPrices {
  input: bigint;
  output: bigint;
  cacheRead: bigint;
  cacheWrite: bigint;
}

function invalid(field: string, message: string): never {
  throw new InvalidRequestError(`${field}: ${message}`, field);
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function parsePrices(value: unknown, field: string): StoredPrices {
  if (!isPlainObject(value)) invalid(field, 'must be an object of USD per million tokens');
  for (const key of Object.keys(value)) {
    if (!(PRICE_KEYS as readonly string[]).includes(key))
      invalid(`${field}.${key}`, `is not a price (${PRICE_KEYS.join(', ')})`);
  }
  const prices: Partial<StoredPrices> = {};
  for (const key of PRICE_KEYS) {
    const price = value[key];
    if (price === undefined && (key === 'cache_read' || key === 'cache_write')) continue;
    if (typeof price !== 'number' || !Number.isFinite(price) || price < 0 || price > MAX_PRICE)
      invalid(`${field}.${key}`, `must be a number of USD per million tokens from 0 to ${MAX_PRICE}`);
    prices[key] = price;
  }
  return prices as StoredPrices;
}

/**
 * `models` of a request body: `{ <id>: { name, prices? } }` with at least one model. Refused with a 400 naming the
 * member at fault, e.g. `models.gpt-4o.prices.input`.
 */
export function parseModels(value: unknown, field = 'models'): StoredModels {
  if (!isPlainObject(value)) invalid(field, 'must be an object of model ids');
  const entries = Object.entries(value);
  if (entries.length === 0) invalid(field, 'must name at least one model');
  if (entries.length > MAX_MODELS) invalid(field, `must name at most ${MAX_MODELS} models`);
  const models: Array<[string, StoredModels[string]]> = [];
  for (const [id, model] of entries) {
    const at = `${field}.${id}`;
    if (!MODEL_ID.test(id)) invalid(at, 'a model id is 1 to 200 printable characters without spaces');
    if (!isPlainObject(model)) invalid(at, 'must be an object with `name`');
    for (const key of Object.keys(model)) {
      if (key !== 'name' && key !== 'prices' && key !== 'kind') invalid(`${at}.${key}`, 'should not exist');
    }
    if (model.kind !== undefined && !isModelKind(model.kind))
      invalid(`${at}.kind`, 'must be chat or embedding');
    if (typeof model.name !== 'string' || model.name.trim().length === 0 || model.name.length > 200)
      invalid(`${at}.name`, 'must be a string of 1 to 200 characters');
    // A lone surrogate is valid in a JS string but not in PostgreSQL's jsonb.
    if (/\p{Cs}/u.test(model.name)) invalid(`${at}.name`, 'must be well-formed Unicode');
    models.push([
      id,
      {
        name: model.name,
        ...(model.prices === undefined ? {} : { prices: parsePrices(model.prices, `${at}.prices`) }),
        ...(isModelKind(model.kind) ? { kind: model.kind } : {}),
      },
    ]);
  }
  return Object.fromEntries(models);
}

/** Stored prices in micro-cents; cache prices default to the input price, as in the operator's catalogue. */
export function microCentPrices(prices: StoredPrices): MicroCentPrices {
  return {
    input: usdToMicroCents(prices.input),
    output: usdToMicroCents(prices.output),
    cacheRead: usdToMicroCents(prices.cache_read ?? prices.input),
    cacheWrite: usdToMicroCents(prices.cache_write ?? prices.input),
  };
}
