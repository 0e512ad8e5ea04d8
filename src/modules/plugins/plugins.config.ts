import { configFromEnv } from '@/config/validate-env';
import { ConfigType } from '@nestjs/config';
import { ConfigError, optionalStr } from '@/config/env';

function registryUrl(env: Record<string, string | undefined>, name: string): string | undefined {
  const value = optionalStr(env, name);
  if (value === undefined) return undefined;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ConfigError(name, 'must be a URL like https://registry.npmjs.org/');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ConfigError(name, `must use http:// or https:// (got "${url.protocol}")`);
  }
  return value.endsWith('/') ? value : `${value}/`;
}

export function parsePluginsEnv(env: Record<string, string | undefined>) {
  return {
    /** Where package plugins come from; unset: the registry the `npm` client is configured with. */
    registry: registryUrl(env, 'OUTPOST_NPM_REGISTRY'),
  };
}

export const pluginsConfig = configFromEnv('plugins', parsePluginsEnv);
export type PluginsConfig = ConfigType<typeof pluginsConfig>;
