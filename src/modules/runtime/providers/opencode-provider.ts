/*
 * opencode's provider shape, as its users write it in `opencode.json`:
 *   "myprovider": { "npm": "@ai-sdk/openai-compatible", "name": "…", "options": { "baseURL": "…", "apiKey": "…" },
 *                   "models": { "my-model": { "name": "…", "limit": { "context": 200000, "output": 65536 } } } }
 * read as Outpost's own (`package: "aisdk:…"`, `settings`). An entry that names `package` is Outpost's shape already.
 */
import { PROVIDER_PACKAGES, ProviderPackage } from './provider-packages';

/** opencode's provider ids whose package it knows without `npm` (from its catalogue). */
const KNOWN_PROVIDERS: Record<string, string> = {
  openai: '@ai-sdk/openai',
  anthropic: '@ai-sdk/anthropic',
};

/** The option names Outpost passes to a provider's package; `headers` become the provider's headers. */
const SETTINGS = ['baseURL', 'apiKey'] as const;

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The entry in Outpost's shape, and notes on what of it Outpost does not use (the provider still loads). An entry
 * that cannot be read (an `npm` package Outpost cannot drive) comes back as it was, with `package` unset, so the
 * provider check names it.
 */
export function fromOpencodeShape(id: string, entry: unknown): { entry?: unknown; notes: string[] } {
  if (!isObject(entry) || entry.package !== undefined) return { entry, notes: [] };
  const notes: string[] = [];
  const options = isObject(entry.options) ? entry.options : {};
  const baseURL = typeof options.baseURL === 'string' ? options.baseURL : undefined;
  const npm =
    typeof entry.npm === 'string'
      ? entry.npm
      : (KNOWN_PROVIDERS[id] ?? (baseURL ? '@ai-sdk/openai-compatible' : undefined));
  if (npm === undefined) {
    const known = Object.keys(KNOWN_PROVIDERS).join(', ');
    return {
      notes: [
        `npm: name the provider's package (e.g. "@ai-sdk/openai-compatible" with options.baseURL); known without it: ${known}`,
      ],
    };
  }
  const pkg = `aisdk:${npm}`;
  if (!PROVIDER_PACKAGES.includes(pkg as ProviderPackage)) {
    const drivable = PROVIDER_PACKAGES.map((name) => name.slice('aisdk:'.length)).join(', ');
    return {
      notes: [`npm: ${npm} is not one Outpost drives (${drivable})`],
    };
  }
  const settings: Record<string, string> = {};
  for (const [name, value] of Object.entries(options)) {
    if ((SETTINGS as readonly string[]).includes(name) && typeof value === 'string') settings[name] = value;
    else if (name !== 'headers') notes.push(`options.${name}: not used by Outpost`);
  }
  const headers = {
    ...(isObject(options.headers) ? options.headers : {}),
    ...(isObject(entry.headers) ? entry.headers : {}),
  };
  const models = isObject(entry.models) ? entry.models : {};
  if (Object.keys(models).length === 0)
    notes.push('models: none listed (Outpost has no model catalogue of its own): list the ones to offer');
  return {
    entry: {
      ...(typeof entry.name === 'string' ? { name: entry.name } : {}),
      package: pkg,
      settings,
      ...(Object.keys(headers).length > 0 ? { headers } : {}),
      models,
    },
    notes,
  };
}
