import { configFromEnv } from '@/config/validate-env';
import { ConfigType } from '@nestjs/config';
import { optionalStr } from '@/config/env';

export function parseLocationsEnv(env: Record<string, string | undefined>) {
  return {
    /** The location used when a request names none; the working directory when unset. */
    defaultDirectory: optionalStr(env, 'OUTPOST_DEFAULT_DIRECTORY') ?? process.cwd(),
  };
}

export const locationsConfig = configFromEnv('locations', parseLocationsEnv);
export type LocationsConfig = ConfigType<typeof locationsConfig>;
