/** A problem by path (`mcp.github.url`), as `config-validation` reports them. */
export interface FieldProblem {
  path: string;
  message: string;
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * One `mcp` entry as a config file writes it (opencode's `McpLocalConfig` / `McpRemoteConfig`). Every member is
 * optional here because a later file may only switch a server off (`{ "enabled": false }`); whether the merged
 * entry is complete is decided when the server starts (`mcpServerProblem`).
 */
export interface McpServerConfig {
  type?: 'local' | 'remote';
  /** local: the program and its arguments. */
  command?: string[];
  /** local: variables added to the server's environment. */
  environment?: Record<string, string>;
  /** remote: the server's URL (Streamable HTTP, else SSE). */
  url?: string;
  /** remote: headers sent with every request. */
  headers?: Record<string, string>;
  /** remote: OAuth settings, or false to never try OAuth. */
  oauth?: Record<string, unknown> | false;
  enabled?: boolean;
  /** Milliseconds for connecting and for each call. */
  timeout?: number;
}

function isStringMap(value: unknown): value is Record<string, string> {
  return isRecord(value) && Object.values(value).every((v) => typeof v === 'string');
}

/** The `mcp` object of one document: bad entries are left out and reported by path. */
export function parseMcpSection(raw: unknown, problems: FieldProblem[]): Record<string, McpServerConfig> {
  if (!isRecord(raw)) {
    problems.push({ path: 'mcp', message: 'must be an object of server name → { type, command | url, … }' });
    return {};
  }
  const servers: Record<string, McpServerConfig> = {};
  for (const [name, value] of Object.entries(raw)) {
    const server = parseMcpServer(value, `mcp.${name}`, problems);
    if (server) servers[name] = server;
  }
  return servers;
}

/** One entry, or undefined (reported) when a member it has is of the wrong kind. */
export function parseMcpServer(
  raw: unknown,
  path: string,
  problems: FieldProblem[],
): McpServerConfig | undefined {
  if (!isRecord(raw)) {
    problems.push({ path, message: 'must be an object' });
    return undefined;
  }
  const before = problems.length;
  const bad = (field: string, message: string) => problems.push({ path: `${path}.${field}`, message });
  const server: McpServerConfig = {};
  if (raw.type !== undefined) {
    if (raw.type === 'local' || raw.type === 'remote') server.type = raw.type;
    else bad('type', 'must be "local" or "remote"');
  }
  if (raw.command !== undefined) {
    const command = raw.command;
    if (Array.isArray(command) && command.length > 0 && command.every((c) => typeof c === 'string')) {
      server.command = command as string[];
    } else bad('command', 'must be a non-empty list of strings (the program, then its arguments)');
  }
  if (raw.environment !== undefined) {
    if (isStringMap(raw.environment)) server.environment = raw.environment;
    else bad('environment', 'must be an object of name → string');
  }
  if (raw.url !== undefined) {
    if (typeof raw.url === 'string' && /^https?:\/\//i.test(raw.url)) server.url = raw.url;
    else bad('url', 'must be an http or https URL');
  }
  if (raw.headers !== undefined) {
    if (isStringMap(raw.headers)) server.headers = raw.headers;
    else bad('headers', 'must be an object of name → string');
  }
  if (raw.oauth !== undefined) {
    if (raw.oauth === false || isRecord(raw.oauth)) server.oauth = raw.oauth;
    else bad('oauth', 'must be an object or false');
  }
  if (raw.enabled !== undefined) {
    if (typeof raw.enabled === 'boolean') server.enabled = raw.enabled;
    else bad('enabled', 'must be true or false');
  }
  if (raw.timeout !== undefined) {
    const timeout = raw.timeout;
    if (typeof timeout === 'number' && Number.isInteger(timeout) && timeout > 0) server.timeout = timeout;
    else bad('timeout', 'must be a positive whole number of milliseconds');
  }
  return problems.length === before ? server : undefined;
}

/** What a merged entry lacks to be started, or undefined when it can be. */
export function mcpServerProblem(server: McpServerConfig): string | undefined {
  if (server.type === 'local') return server.command ? undefined : 'a local server needs a "command"';
  if (server.type === 'remote') return server.url ? undefined : 'a remote server needs a "url"';
  return '"type" must be "local" or "remote"';
}

/** An entry given whole (`POST /mcp`): valid and complete enough to start, or its first problem. */
export function parseWholeMcpServer(
  raw: unknown,
  path: string,
): { config: McpServerConfig } | { problem: FieldProblem } {
  const problems: FieldProblem[] = [];
  const config = parseMcpServer(raw, path, problems);
  if (!config) return { problem: problems[0] };
  const missing = mcpServerProblem(config);
  return missing ? { problem: { path, message: missing } } : { config };
}

/** Later files override earlier ones member by member, per server. */
export function mergeMcp(
  base: Record<string, McpServerConfig>,
  over: Record<string, McpServerConfig>,
): Record<string, McpServerConfig> {
  const out = { ...base };
  for (const [name, server] of Object.entries(over)) out[name] = { ...base[name], ...server };
  return out;
}
