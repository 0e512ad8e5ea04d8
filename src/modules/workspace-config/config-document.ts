import validatePackageName from 'validate-npm-package-name';
import { InvalidRequestError } from '@/common/errors';

/** JSON as stored in `jsonb` and sent to clients. */
export type Json = string | number | boolean | null | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

export interface ProviderEntry {
  name: string;
  env: string[];
  package: string;
  settings: JsonObject & { baseURL: string; apiKey: string };
  headers: Record<string, string>;
  models: Record<string, JsonObject & { name: string }>;
  canonical?: string;
  body?: JsonObject;
}

export interface McpServer {
  type: 'remote';
  url: string;
  headers?: Record<string, string>;
  enabled?: boolean;
  timeout?: number;
  auth?: 'console';
  oauth?: Json;
}

export const POLICY_ACTIONS = ['provider.use', 'permission'] as const;

export interface PolicyStatement {
  action: (typeof POLICY_ACTIONS)[number];
  resource: string;
  effect: 'allow' | 'deny';
}

/** What a workspace stores: `websearch` and `mcp` are null while disabled. */
export interface ConfigDocument {
  providers: Record<string, ProviderEntry>;
  websearch: { providerID: string } | null;
  mcp: { servers: Record<string, McpServer> } | null;
  policies: PolicyStatement[];
}

export const EMPTY_DOCUMENT: ConfigDocument = { providers: {}, websearch: null, mcp: null, policies: [] };

/** The header every provider entry carries, naming the workspace (`org_<id>`). */
export const WORKSPACE_HEADER = 'x-org-id';

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,127}$/;
const ENV_REFERENCE = /^\{env:([A-Za-z_][A-Za-z0-9_]{0,127})\}$/;
const PROVIDER_ID = /^[a-z0-9][a-z0-9._-]{0,63}$/;
const MODEL_ID = /^[A-Za-z0-9][A-Za-z0-9._:/@+-]{0,127}$/;
const SERVER_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
const HEADER_NAME = /^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,100}$/;
const LOADER = /^([a-z][a-z0-9-]{0,31}):(.+)$/;
/** Settings keys and header names whose value is a credential: only an `{env:NAME}` reference may go there. */
const CREDENTIAL_NAME = /api[-_]?key|token|secret|password|authorization|credential|cookie/i;
/** Values that are credentials whatever their key: provider keys, our own tokens, bearer values, PEM keys. */
const SECRET_VALUE =
  /^(sk-|sk_|sk-ant-|oc_sk_|oc_ut_|oc_at_|xox[abpr]-|ghp_|gho_|ghs_|github_pat_|glpat-|AKIA[0-9A-Z]{12}|AIza[0-9A-Za-z_-]{20})|^(Bearer|Basic)\s+\S|-----BEGIN [A-Z ]*PRIVATE KEY/i;

const MAX_PROVIDERS = 100;
const MAX_MODELS = 500;
const MAX_SERVERS = 50;
const MAX_POLICIES = 1000;

function fail(field: string, message: string): never {
  throw new InvalidRequestError(`${field}: ${message}`, field);
}

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function object(value: unknown, field: string): JsonObject {
  if (!isObject(value)) fail(field, 'must be an object');
  return value;
}

function only(value: JsonObject, field: string, allowed: readonly string[]): void {
  const unknown = Object.keys(value).find((key) => !allowed.includes(key));
  if (unknown !== undefined) fail(`${field ? `${field}.` : ''}${unknown}`, 'is not allowed');
}

function string(value: unknown, field: string, max = 200): string {
  if (typeof value !== 'string' || value.length === 0 || value.length > max) {
    fail(field, `must be a non-empty string of at most ${max} characters`);
  }
  return value;
}

function httpUrl(value: unknown, field: string): string {
  const text = string(value, field, 2000);
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    fail(field, 'must be an absolute http(s) URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') fail(field, 'must be an http(s) URL');
  if (url.username || url.password) fail(field, 'must not carry credentials; use headers with {env:NAME}');
  return text;
}

function envReference(value: unknown, field: string): string {
  if (typeof value !== 'string' || !ENV_REFERENCE.test(value)) {
    fail(field, 'must be an environment reference {env:NAME}, never a secret');
  }
  return value;
}

/** Every string inside `value` that looks like a credential is refused, as are credential-named keys. */
function noSecrets(value: unknown, field: string): void {
  if (typeof value === 'string') {
    if (SECRET_VALUE.test(value.trim())) {
      fail(field, 'looks like a secret; use an environment reference {env:NAME}');
    }
  } else if (Array.isArray(value)) {
    value.forEach((item, index) => noSecrets(item, `${field}.${index}`));
  } else if (isObject(value)) {
    for (const [key, item] of Object.entries(value)) {
      if (CREDENTIAL_NAME.test(key) && item !== null) envReference(item, `${field}.${key}`);
      else noSecrets(item, `${field}.${key}`);
    }
  }
}

function map<T>(
  value: unknown,
  field: string,
  key: RegExp,
  max: number,
  entry: (item: unknown, field: string, id: string) => T,
): Record<string, T> {
  const source = object(value, field);
  const ids = Object.keys(source);
  if (ids.length > max) fail(field, `must have at most ${max} entries`);
  const result: Record<string, T> = {};
  for (const id of ids.sort()) {
    if (!key.test(id)) fail(`${field}.${id}`, `is not a valid name (${key.source})`);
    result[id] = entry(source[id], `${field}.${id}`, id);
  }
  return result;
}

function headers(value: unknown, field: string, dropWorkspaceHeader: boolean): Record<string, string> {
  const result: Record<string, string> = {};
  for (const [name, item] of Object.entries(object(value, field)).sort(([a], [b]) => a.localeCompare(b))) {
    const at = `${field}.${name}`;
    if (!HEADER_NAME.test(name)) fail(at, 'is not a valid header name');
    // The workspace header is always ours: a round-tripped GET document carries it.
    if (dropWorkspaceHeader && name.toLowerCase() === WORKSPACE_HEADER) continue;
    if (CREDENTIAL_NAME.test(name)) envReference(item, at);
    const text = string(item, at, 2000);
    noSecrets(text, at);
    result[name] = text;
  }
  return result;
}

function packageName(value: unknown, field: string): string {
  const text = string(value, field);
  const match = LOADER.exec(text);
  if (!match) fail(field, 'must have the form <loader>:<package_name>, e.g. aisdk:@ai-sdk/openai-compatible');
  const valid = validatePackageName(match[2]);
  if (!valid.validForNewPackages && !valid.validForOldPackages) {
    fail(field, `"${match[2]}" is not a valid npm package name`);
  }
  return text;
}

function model(value: unknown, field: string): JsonObject & { name: string } {
  const source = object(value, field);
  noSecrets(source, field);
  return { ...sortKeys(source), name: string(source.name, `${field}.name`) };
}

function provider(value: unknown, field: string): ProviderEntry {
  const source = object(value, field);
  only(source, field, ['name', 'env', 'package', 'settings', 'headers', 'models', 'canonical', 'body']);
  if (!Array.isArray(source.env) || source.env.length === 0 || source.env.length > 10) {
    fail(`${field}.env`, 'must be a list of 1 to 10 environment variable names');
  }
  const env = source.env.map((name, index) => {
    if (typeof name !== 'string' || !ENV_NAME.test(name)) {
      fail(`${field}.env.${index}`, 'must be an environment variable name (letters, digits, _)');
    }
    return name;
  });
  const settings = object(source.settings, `${field}.settings`);
  noSecrets(settings, `${field}.settings`);
  const entry: ProviderEntry = {
    name: string(source.name, `${field}.name`),
    env,
    package: packageName(source.package, `${field}.package`),
    settings: {
      ...sortKeys(settings),
      baseURL: httpUrl(settings.baseURL, `${field}.settings.baseURL`),
      apiKey:
        settings.apiKey === undefined
          ? `{env:${env[0]}}`
          : envReference(settings.apiKey, `${field}.settings.apiKey`),
    },
    headers: source.headers === undefined ? {} : headers(source.headers, `${field}.headers`, true),
    models: map(source.models ?? {}, `${field}.models`, MODEL_ID, MAX_MODELS, model),
  };
  if (source.canonical !== undefined) entry.canonical = string(source.canonical, `${field}.canonical`, 100);
  if (source.body !== undefined) {
    noSecrets(source.body, `${field}.body`);
    entry.body = sortKeys(object(source.body, `${field}.body`));
  }
  return entry;
}

function mcpServer(value: unknown, field: string): McpServer {
  const source = object(value, field);
  if ('command' in source || source.type === 'local') {
    fail(field, 'only remote MCP servers (a url) are allowed, never a command');
  }
  only(source, field, ['type', 'url', 'headers', 'enabled', 'timeout', 'auth', 'oauth']);
  if (source.type !== undefined && source.type !== 'remote') fail(`${field}.type`, 'must be "remote"');
  const server: McpServer = { type: 'remote', url: httpUrl(source.url, `${field}.url`) };
  if (source.headers !== undefined) server.headers = headers(source.headers, `${field}.headers`, false);
  if (source.enabled !== undefined) {
    if (typeof source.enabled !== 'boolean') fail(`${field}.enabled`, 'must be a boolean');
    server.enabled = source.enabled;
  }
  if (source.timeout !== undefined) {
    const timeout = source.timeout;
    if (typeof timeout !== 'number' || !Number.isInteger(timeout) || timeout < 1 || timeout > 600_000) {
      fail(`${field}.timeout`, 'must be an integer number of milliseconds (1 to 600000)');
    }
    server.timeout = timeout;
  }
  if (source.auth !== undefined) {
    if (source.auth !== 'console') fail(`${field}.auth`, 'must be "console"');
    server.auth = 'console';
  }
  if (source.oauth !== undefined) {
    if (source.oauth !== false && !isObject(source.oauth))
      fail(`${field}.oauth`, 'must be an object or false');
    noSecrets(source.oauth, `${field}.oauth`);
    server.oauth = source.oauth;
  }
  return server;
}

function policies(value: unknown, field: string): PolicyStatement[] {
  if (!Array.isArray(value) || value.length > MAX_POLICIES) {
    fail(field, `must be a list of at most ${MAX_POLICIES} statements`);
  }
  return value.map((item, index) => {
    const at = `${field}.${index}`;
    const statement = object(item, at);
    only(statement, at, ['action', 'resource', 'effect']);
    if (!POLICY_ACTIONS.includes(statement.action as PolicyStatement['action'])) {
      fail(`${at}.action`, `must be one of ${POLICY_ACTIONS.join(', ')}`);
    }
    if (statement.effect !== 'allow' && statement.effect !== 'deny') {
      fail(`${at}.effect`, 'must be "allow" or "deny"');
    }
    return {
      action: statement.action as PolicyStatement['action'],
      resource: string(statement.resource, `${at}.resource`),
      effect: statement.effect,
    };
  });
}

/**
 * Validates a `PUT …/config` body into the members it changes. Policies may come as `policies` or as the
 * deprecated `experimental.policies` (both: they must agree); either way they are stored once.
 */
export function parseConfigInput(body: unknown): Partial<ConfigDocument> {
  const source = object(body, 'body');
  only(source, '', ['providers', 'websearch', 'mcp', 'policies', 'experimental']);
  const change: Partial<ConfigDocument> = {};
  if (source.providers !== undefined) {
    change.providers = map(source.providers, 'providers', PROVIDER_ID, MAX_PROVIDERS, provider);
  }
  if (source.websearch !== undefined) {
    if (source.websearch === null) change.websearch = null;
    else {
      const websearch = object(source.websearch, 'websearch');
      only(websearch, 'websearch', ['providerID']);
      change.websearch = { providerID: string(websearch.providerID, 'websearch.providerID', 100) };
    }
  }
  if (source.mcp !== undefined) {
    if (source.mcp === null) change.mcp = null;
    else {
      const mcp = object(source.mcp, 'mcp');
      only(mcp, 'mcp', ['servers']);
      change.mcp = { servers: map(mcp.servers, 'mcp.servers', SERVER_NAME, MAX_SERVERS, mcpServer) };
    }
  }
  if (source.policies !== undefined) change.policies = policies(source.policies, 'policies');
  if (source.experimental !== undefined) {
    const experimental = object(source.experimental, 'experimental');
    only(experimental, 'experimental', ['policies']);
    if (experimental.policies !== undefined) {
      const deprecated = policies(experimental.policies, 'experimental.policies');
      if (change.policies && stableJson(change.policies) !== stableJson(deprecated)) {
        fail('experimental.policies', 'differs from policies; send one of them');
      }
      change.policies = deprecated;
    }
  }
  return change;
}

/** The document clients read: every provider carries the workspace header; policies under both names. */
export function renderConfig(workspaceId: string, document: ConfigDocument): string {
  const providers: Record<string, ProviderEntry> = {};
  for (const [id, entry] of Object.entries(document.providers)) {
    providers[id] = { ...entry, headers: { ...entry.headers, [WORKSPACE_HEADER]: workspaceId } };
  }
  return stableJson({
    providers,
    ...(document.websearch ? { websearch: document.websearch } : {}),
    ...(document.mcp && Object.keys(document.mcp.servers).length > 0 ? { mcp: document.mcp } : {}),
    policies: document.policies,
    experimental: { policies: document.policies },
  });
}

function sortKeys<T extends Json>(value: T): T {
  if (Array.isArray(value)) return value.map((item) => sortKeys(item)) as T;
  if (!isObject(value)) return value;
  const sorted: JsonObject = {};
  for (const key of Object.keys(value).sort()) sorted[key] = sortKeys(value[key]);
  return sorted as T;
}

/** JSON with keys in a fixed order, so equal content gives equal text (and an equal ETag). */
export function stableJson(value: unknown): string {
  return JSON.stringify(sortKeys(value as Json));
}
