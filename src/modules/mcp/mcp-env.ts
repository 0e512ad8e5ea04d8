import type { McpServerConfig } from '../location-config/mcp-config';
import { substituteEnv } from '../runtime/providers/env-template';

/** A variable a server's config names with `{env:NAME}` that the server's environment lacks. */
export class McpMissingEnvError extends Error {}

/** Where `{env:NAME}` is read: the process's environment, or secrets a config source holds (a console's token). */
export type EnvLookup = (name: string) => string | undefined;

/**
 * The config with every `{env:NAME}` in `url`, `headers`, `command` and `environment` replaced by the server's
 * environment, read when the server starts (so a rotated token needs a reconnect, not a restart); a remote
 * server's headers are read again for every request (`McpConnection`).
 */
export function resolveEnv(config: McpServerConfig, lookup: EnvLookup): McpServerConfig {
  const env = new Proxy({} as NodeJS.ProcessEnv, { get: (_target, name) => lookup(String(name)) });
  const fill = (value: string) =>
    substituteEnv(value, env, (name) => {
      throw new McpMissingEnvError(`the environment variable ${name} is not set`);
    });
  const map = (values?: Record<string, string>) =>
    values && Object.fromEntries(Object.entries(values).map(([key, value]) => [key, fill(value)]));
  return {
    ...config,
    ...(config.url ? { url: fill(config.url) } : {}),
    ...(config.headers ? { headers: map(config.headers) } : {}),
    ...(config.environment ? { environment: map(config.environment) } : {}),
    ...(config.command ? { command: config.command.map(fill) } : {}),
  };
}
