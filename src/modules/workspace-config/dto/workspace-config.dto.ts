/** A provider entry (`<loader>:<package_name>`, gateway settings, models). */
export class ConfigProviderDto {
  name!: string;
  /** Names of environment variables, e.g. `["OUTPOST_API_KEY"]`. */
  env!: string[];
  /** `<loader>:<package_name>`, e.g. `aisdk:@ai-sdk/openai-compatible`. */
  package!: string;
  /** `baseURL` (http(s) URL) and `apiKey` (an `{env:NAME}` reference, never a secret), plus free settings. */
  settings!: Record<string, unknown>;
  /** On output always includes `x-org-id: org_<id>`. */
  headers?: Record<string, string>;
  /** Model id → `{ name, ... }`. */
  models?: Record<string, Record<string, unknown>>;
}

export class PolicyStatementDto {
  action!: 'provider.use' | 'permission';
  /** An id, wildcards `*` and `?` allowed. */
  resource!: string;
  effect!: 'allow' | 'deny';
}

export class ExperimentalConfigDto {
  /** Deprecated name of `policies` (what current opencode clients read). */
  policies?: PolicyStatementDto[];
}

/**
 * The workspace config (V2). In a `PUT`, each member present replaces the stored one (`websearch` or `mcp`
 * null disables it) and absent members stay as they are.
 */
export class WorkspaceConfigDto {
  providers?: Record<string, ConfigProviderDto>;
  /** Hosted web search, present when enabled. */
  websearch?: { providerID: string } | null;
  /** Remote MCP servers only: `{ servers: { <name>: { url, headers?, auth?: "console", ... } } }`. */
  mcp?: { servers: Record<string, Record<string, unknown>> } | null;
  policies?: PolicyStatementDto[];
  experimental?: ExperimentalConfigDto;
}
