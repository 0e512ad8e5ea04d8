/*
 * What a console answers, checked before anything uses it. The console is a server the person named; its answers
 * are untrusted input, like a request body: a missing `expires_in` must not become a NaN date or a poll every
 * millisecond, and a config that is not an object must not reach the locations.
 */
import { isRecord } from '../location-config/config-validation';

/** A console answer that cannot be used; `field` names what was wrong. */
export class ConsoleAnswerError extends Error {
  constructor(
    readonly origin: string,
    readonly field: string,
    why: string,
  ) {
    super(`the console at ${origin} answered ${why}`);
  }
}

/** RFC 8628 §3.2: a client polls every 5 s unless told otherwise; never faster than once a second here. */
export const DEFAULT_POLL_SECONDS = 5;
export const MIN_POLL_SECONDS = 1;
/** A device code is polled for at most an hour, whatever the console says. */
export const MAX_CODE_SECONDS = 3600;
/** An access token is trusted for at most 30 days before it is refreshed. */
const MAX_TOKEN_SECONDS = 30 * 24 * 3600;
const MAX_STRING = 4096;

export interface DeviceCode {
  deviceCode: string;
  userCode: string;
  /** The console's approval page with the code filled in (an http(s) URL). */
  link: string;
  expiresInSeconds: number;
  intervalSeconds: number;
}

export interface Tokens {
  accessToken: string;
  refreshToken: string;
  expiresInSeconds: number;
  orgId: string | null;
}

function text(origin: string, answer: Record<string, unknown>, field: string): string {
  const value = answer[field];
  if (typeof value !== 'string' || value === '')
    throw new ConsoleAnswerError(origin, field, `without ${field} (a string)`);
  if (value.length > MAX_STRING) throw new ConsoleAnswerError(origin, field, `with ${field} too long`);
  return value;
}

function seconds(origin: string, answer: Record<string, unknown>, field: string, fallback?: number): number {
  const value = answer[field] ?? fallback;
  // An interval of 0 ("poll at once") is read as the shortest one allowed; an expiry of 0 is no code at all.
  const least = field === 'interval' ? 0 : Number.MIN_VALUE;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < least)
    throw new ConsoleAnswerError(origin, field, `without ${field} (a positive number of seconds)`);
  return value;
}

function record(origin: string, answer: unknown): Record<string, unknown> {
  if (!isRecord(answer))
    throw new ConsoleAnswerError(origin, 'body', 'with a body that is not a JSON object');
  return answer;
}

/** The answer to `POST /console/auth/device/code`, with the poll bounded (1 s apart at least, an hour at most). */
export function deviceCodeAnswer(origin: string, raw: unknown): DeviceCode {
  const answer = record(origin, raw);
  const deviceCode = text(origin, answer, 'device_code');
  const userCode = text(origin, answer, 'user_code');
  const expiresInSeconds = Math.min(seconds(origin, answer, 'expires_in'), MAX_CODE_SECONDS);
  const intervalSeconds = Math.max(
    seconds(origin, answer, 'interval', DEFAULT_POLL_SECONDS),
    MIN_POLL_SECONDS,
  );
  const page = (answer.verification_uri_complete ?? answer.verification_uri) as unknown;
  let link: URL;
  try {
    link = new URL(String(page), origin);
  } catch {
    throw new ConsoleAnswerError(
      origin,
      'verification_uri_complete',
      'with a verification URI that is no URL',
    );
  }
  if (typeof page !== 'string' || (link.protocol !== 'http:' && link.protocol !== 'https:'))
    throw new ConsoleAnswerError(
      origin,
      'verification_uri_complete',
      'with a verification URI that is no http(s) URL',
    );
  return { deviceCode, userCode, link: link.toString(), expiresInSeconds, intervalSeconds };
}

/** The answer to `POST /console/auth/device/token` (a device code approved, or a refresh). */
export function tokenAnswer(origin: string, raw: unknown): Tokens {
  const answer = record(origin, raw);
  const orgId = answer.org_id ?? null;
  if (orgId !== null && (typeof orgId !== 'string' || orgId.length > MAX_STRING))
    throw new ConsoleAnswerError(origin, 'org_id', 'with an org_id that is not a string');
  return {
    accessToken: text(origin, answer, 'access_token'),
    refreshToken: text(origin, answer, 'refresh_token'),
    expiresInSeconds: Math.min(seconds(origin, answer, 'expires_in'), MAX_TOKEN_SECONDS),
    orgId,
  };
}

export interface ConsoleProvider {
  name?: string;
  package?: string;
  settings: { baseURL?: string };
  headers?: Record<string, string>;
  models: Record<string, unknown>;
}

export interface PolicyStatement {
  action: string;
  resource: string;
  effect: 'allow' | 'deny';
}

/** The workspace config (`GET /console/api/v2/config`) as far as an instance uses it: providers, policies, web search. */
export interface ConsoleConfig {
  providers?: Record<string, ConsoleProvider>;
  policies?: PolicyStatement[];
  /** The workspace enables web search (through the console's `POST /inference/v1/search`). */
  websearch?: boolean;
  /** The workspace's remote MCP servers (the console's own among them), as the instance may use them. */
  mcp?: Record<string, ConsoleMcpServer>;
}

export interface ConsoleMcpServer {
  url: string;
  headers?: Record<string, string>;
  enabled?: boolean;
  timeout?: number;
  oauth?: false | Record<string, unknown>;
}

/** The variables that hold the console's token: opencode's name, and this instance's own. */
export const CONSOLE_TOKEN_VARIABLES = ['OPENCODE_CONSOLE_TOKEN', 'OUTPOST_CONSOLE_TOKEN'];
const ENV_REFERENCE = /\{env:([A-Za-z_][A-Za-z0-9_]*)\}/g;

/**
 * A server's headers as the instance sends them. A reference to the console's token is kept only for a server on
 * the console's own origin, and any other `{env:…}` reference is dropped: an owner's config must not make the
 * instance send its person's token, or the instance's environment, to another host.
 */
function mcpHeaders(origin: string, url: URL, raw: unknown): Record<string, string> | undefined {
  const headers = stringRecord(raw);
  if (!headers) return undefined;
  const sameOrigin = url.origin === new URL(origin).origin;
  const kept = Object.entries(headers).filter(([, value]) =>
    [...value.matchAll(ENV_REFERENCE)].every(
      ([, name]) => sameOrigin && CONSOLE_TOKEN_VARIABLES.includes(name),
    ),
  );
  return Object.fromEntries(kept);
}

/** The remote servers of `mcp.servers` with an http(s) URL (no `{env:…}` in it); anything else is left out. */
function mcpServers(origin: string, raw: unknown): Record<string, ConsoleMcpServer> {
  const servers: Record<string, ConsoleMcpServer> = {};
  const entries = isRecord(raw) && isRecord(raw.servers) ? Object.entries(raw.servers) : [];
  for (const [name, value] of entries) {
    if (!isRecord(value) || typeof value.url !== 'string' || value.url.includes('{env:')) continue;
    let url: URL;
    try {
      url = new URL(value.url);
    } catch {
      continue;
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') continue;
    const headers = mcpHeaders(origin, url, value.headers);
    servers[name] = {
      url: value.url,
      ...(headers ? { headers } : {}),
      ...(typeof value.enabled === 'boolean' ? { enabled: value.enabled } : {}),
      ...(typeof value.timeout === 'number' && Number.isInteger(value.timeout) && value.timeout > 0
        ? { timeout: value.timeout }
        : {}),
      ...(value.oauth === false || isRecord(value.oauth) ? { oauth: value.oauth } : {}),
    };
  }
  return servers;
}

const optionalText = (value: unknown) => (typeof value === 'string' ? value : undefined);

function stringRecord(value: unknown): Record<string, string> | undefined {
  if (!isRecord(value)) return undefined;
  const entries = Object.entries(value).filter(
    (entry): entry is [string, string] => typeof entry[1] === 'string',
  );
  return Object.fromEntries(entries);
}

/**
 * The parts of a workspace config an instance uses, keeping only well-formed entries: a provider that is not an
 * object, a policy without string fields, or a body that is no object at all is left out (the whole body: an error).
 */
export function consoleConfigAnswer(origin: string, raw: unknown): ConsoleConfig {
  const answer = record(origin, raw);
  const providers: Record<string, ConsoleProvider> = {};
  for (const [id, value] of Object.entries(isRecord(answer.providers) ? answer.providers : {})) {
    if (!isRecord(value)) continue;
    const settings = isRecord(value.settings) ? value.settings : {};
    const headers = stringRecord(value.headers);
    providers[id] = {
      ...(optionalText(value.name) ? { name: optionalText(value.name) } : {}),
      ...(optionalText(value.package) ? { package: optionalText(value.package) } : {}),
      settings: optionalText(settings.baseURL) ? { baseURL: optionalText(settings.baseURL) } : {},
      ...(headers ? { headers } : {}),
      models: isRecord(value.models) ? value.models : {},
    };
  }
  const policies = (Array.isArray(answer.policies) ? answer.policies : []).filter(
    (p): p is PolicyStatement =>
      isRecord(p) &&
      typeof p.action === 'string' &&
      typeof p.resource === 'string' &&
      (p.effect === 'allow' || p.effect === 'deny'),
  );
  const websearch = isRecord(answer.websearch) && typeof answer.websearch.providerID === 'string';
  const mcp = mcpServers(origin, answer.mcp);
  return {
    providers,
    policies,
    ...(websearch ? { websearch } : {}),
    ...(Object.keys(mcp).length ? { mcp } : {}),
  };
}

/**
 * The name of workspace `orgId` in the console's `GET /console/api/orgs` answer, as a person may read it on a
 * terminal: control characters (a terminal's escape sequences among them) taken out, trimmed, 200 characters at
 * most; null when the answer does not name it.
 */
export function workspaceNameAnswer(orgId: string, raw: unknown): string | null {
  if (!Array.isArray(raw)) return null;
  const found: unknown = raw.find((org) => isRecord(org) && org.id === orgId);
  const name = isRecord(found) ? found.name : undefined;
  if (typeof name !== 'string') return null;
  const words = name
    .replace(/\p{Cc}/gu, '')
    .trim()
    .slice(0, 200);
  return words === '' ? null : words;
}
