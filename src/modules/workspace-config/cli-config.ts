/* A V2 workspace config in opencode's own config shape. */

export type Json = Record<string, unknown>;

/** The V2 workspace config as an opencode config (what the CLI merges into its own). */
export function cliConfig(v2: Json): Json {
  const provider: Json = {};
  for (const [id, entry] of Object.entries((v2.providers ?? {}) as Record<string, Json>)) {
    const settings = (entry.settings ?? {}) as Json;
    const pkg = typeof entry.package === 'string' ? entry.package.replace(/^[^:]*:/, '') : undefined;
    provider[id] = {
      ...(entry.name !== undefined ? { name: entry.name } : {}),
      ...(entry.env !== undefined ? { env: entry.env } : {}),
      ...(pkg ? { npm: pkg } : {}),
      options: { ...settings, ...(entry.headers ? { headers: entry.headers } : {}) },
      models: entry.models ?? {},
    };
  }
  // opencode's remote MCP entries take the same members, but for `auth` (a V2 hint opencode has no field for).
  const mcp: Json = {};
  for (const [name, entry] of Object.entries(
    ((v2.mcp as Json | undefined)?.servers ?? {}) as Record<string, Json>,
  )) {
    const { auth: _auth, ...server } = entry;
    mcp[name] = server;
  }
  const policies = (v2.policies ?? []) as unknown[];
  return {
    provider,
    ...(Object.keys(mcp).length ? { mcp } : {}),
    ...(policies.length ? { experimental: { policies } } : {}),
  };
}
