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
  const policies = (v2.policies ?? []) as unknown[];
  return { provider, ...(policies.length ? { experimental: { policies } } : {}) };
}
