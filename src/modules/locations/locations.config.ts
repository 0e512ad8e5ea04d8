import { configFromEnv } from '@/config/validate-env';
import { ConfigType } from '@nestjs/config';
import { int, optionalStr } from '@/config/env';

export function parseLocationsEnv(env: Record<string, string | undefined>) {
  return {
    /** The location used when a request names none; the working directory when unset. */
    defaultDirectory: optionalStr(env, 'OUTPOST_DEFAULT_DIRECTORY') ?? process.cwd(),
    /** How long a request waits for a location's config, plugins and agents to load before it gets a 503. */
    loadTimeoutMs: int(env, 'OUTPOST_LOCATION_LOAD_TIMEOUT_MS', 30_000, 100, 3_600_000),
  };
}

export const locationsConfig = configFromEnv('locations', parseLocationsEnv);
export type LocationsConfig = ConfigType<typeof locationsConfig>;
