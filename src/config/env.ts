import { homedir } from 'node:os';
import { join, resolve } from 'node:path';

/** A bad environment variable: the process prints one line naming it and exits. */
export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    problem: string,
  ) {
    super(`${variable} ${problem}`);
  }
}

export const SURFACES = ['instance', 'console', 'inference'] as const;
export type Surface = (typeof SURFACES)[number];

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

type Env = Record<string, string | undefined>;

function raw(env: Env, name: string): string | undefined {
  const value = env[name];
  return value === undefined || value.trim() === '' ? undefined : value.trim();
}

export function str(env: Env, name: string, fallback: string): string {
  return raw(env, name) ?? fallback;
}

export function optionalStr(env: Env, name: string): string | undefined {
  return raw(env, name);
}

export function int(env: Env, name: string, fallback: number, min: number, max: number): number {
  const value = raw(env, name);
  if (value === undefined) return fallback;
  if (!/^\d+$/.test(value) || Number(value) < min || Number(value) > max) {
    throw new ConfigError(name, `must be a whole number from ${min} to ${max} (got "${value}")`);
  }
  return Number(value);
}

export function bool(env: Env, name: string, fallback: boolean): boolean {
  const value = raw(env, name)?.toLowerCase();
  if (value === undefined) return fallback;
  if (['1', 'true', 'yes', 'on'].includes(value)) return true;
  if (['0', 'false', 'no', 'off'].includes(value)) return false;
  throw new ConfigError(name, `must be true or false (got "${value}")`);
}

export function oneOf<T extends string>(env: Env, name: string, allowed: readonly T[], fallback: T): T {
  const value = raw(env, name);
  if (value === undefined) return fallback;
  if (!allowed.includes(value as T)) {
    throw new ConfigError(name, `must be one of ${allowed.join(', ')} (got "${value}")`);
  }
  return value as T;
}

export function list<T extends string>(env: Env, name: string, allowed: readonly T[], fallback: T[]): T[] {
  const value = raw(env, name);
  if (value === undefined) return fallback;
  const items = value
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);
  const bad = items.find((item) => !allowed.includes(item as T));
  if (bad !== undefined || items.length === 0) {
    throw new ConfigError(name, `must be a comma-separated list of ${allowed.join(', ')} (got "${value}")`);
  }
  return [...new Set(items)] as T[];
}

export function postgresUrl(env: Env, name: string): string | undefined {
  const value = raw(env, name);
  if (value === undefined) return undefined;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ConfigError(name, 'must be a URL like postgres://user:password@host:5432/database');
  }
  if (url.protocol !== 'postgres:' && url.protocol !== 'postgresql:') {
    throw new ConfigError(name, `must use the postgres:// scheme (got "${url.protocol}")`);
  }
  return value;
}

/**
 * The proxies whose `X-Forwarded-For` is believed: addresses or CIDRs, comma-separated (what Fastify's
 * `trustProxy` takes). Never "any": with `true`, every client could forge its address.
 */
function proxyList(env: Env, name: string): string[] | false {
  const value = raw(env, name);
  if (value === undefined || value.toLowerCase() === 'false') return false;
  const items = value
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);
  const address = /^(?:\d{1,3}(?:\.\d{1,3}){3}|[0-9a-fA-F:]*:[0-9a-fA-F:.]*)(?:\/\d{1,3})?$/;
  const bad = items.find((item) => !address.test(item));
  if (bad !== undefined || items.length === 0) {
    throw new ConfigError(
      name,
      `must list the proxies' addresses or CIDRs, e.g. 127.0.0.1,10.0.0.0/8 (got "${value}"); "true" would let any client choose its address`,
    );
  }
  return items;
}

function redisUrl(env: Env, name: string): string | undefined {
  const value = raw(env, name);
  if (value === undefined) return undefined;
  if (!/^rediss?:\/\/[^\s]+$/.test(value))
    throw new ConfigError(name, `must be a URL like redis://127.0.0.1:6379 (got "${value}")`);
  return value;
}

export function expandHome(path: string): string {
  return path.startsWith('~/') || path === '~' ? join(homedir(), path.slice(1)) : resolve(path);
}

/** Settings every surface shares. Parsed once at boot; later issues add their own namespaces. */
export function parseAppEnv(env: Env) {
  return {
    port: int(env, 'PORT', 4096, 0, 65535),
    host: str(env, 'HOST', '127.0.0.1'),
    surfaces: list(env, 'OUTPOST_SURFACES', SURFACES, [...SURFACES]),
    dataDir: expandHome(str(env, 'OUTPOST_DATA_DIR', '~/.local/share/outpost')),
    configDir: expandHome(str(env, 'OUTPOST_CONFIG_DIR', '~/.config/outpost')),
    logLevel: oneOf(env, 'LOG_LEVEL', LOG_LEVELS, 'info'),
    logFormat: oneOf(env, 'LOG_FORMAT', ['auto', 'json', 'pretty'] as const, 'auto'),
    /** The body limit of every route that declares none (and of every unauthenticated request). */
    bodyLimitBytes: int(env, 'OUTPOST_BODY_LIMIT', 64 * 1024, 1024, 1024 * 1024 * 1024),
    /** The body limit of a session import, read as it streams (an export of any size imports again). */
    importBodyLimitBytes: int(env, 'OUTPOST_IMPORT_BODY_LIMIT', 1024 ** 3, 1024 * 1024, 64 * 1024 ** 3),
    /** Time to receive a whole request (headers and body): slow senders are cut with 408. */
    requestTimeoutMs: int(env, 'OUTPOST_REQUEST_TIMEOUT_MS', 30_000, 500, 3_600_000),
    /** Time to receive the request headers. */
    headersTimeoutMs: int(env, 'OUTPOST_HEADERS_TIMEOUT_MS', 10_000, 500, 3_600_000),
    shutdownGraceMs: int(env, 'OUTPOST_SHUTDOWN_GRACE_MS', 10_000, 0, 600_000),
    /** After SIGTERM, how long the process answers not-ready but keeps serving before it stops accepting. */
    drainDelayMs: int(env, 'OUTPOST_DRAIN_DELAY_MS', 0, 0, 600_000),
    trustProxy: proxyList(env, 'OUTPOST_TRUST_PROXY'),
    /** Bearer token that `GET /metrics` asks for; unset: no /metrics at all. */
    metricsToken: optionalStr(env, 'OUTPOST_METRICS_TOKEN'),
    /** Shared rate-limit counters in Redis instead of PostgreSQL. */
    redisUrl: redisUrl(env, 'REDIS_URL'),
  };
}

export function parseDatabaseEnv(env: Env) {
  return {
    url: postgresUrl(env, 'DATABASE_URL'),
    connectRetries: int(env, 'DATABASE_CONNECT_RETRIES', 2, 0, 100),
    // Each process keeps up to this many connections: nodes × this must stay under the server's max_connections.
    poolMax: int(env, 'DATABASE_POOL_MAX', 20, 1, 1000),
  };
}
