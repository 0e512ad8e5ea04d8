import { configFromEnv } from '../../config/validate-env';
import { ConfigType } from '@nestjs/config';
import { ConfigError, optionalStr } from '../../config/env';

export function parseKeysEnv(env: Record<string, string | undefined>) {
  const secretKey = optionalStr(env, 'OUTPOST_SECRET_KEY');
  if (secretKey !== undefined && secretKey.length < 32) {
    throw new ConfigError(
      'OUTPOST_SECRET_KEY',
      'must be at least 32 characters (e.g. `openssl rand -hex 32`)',
    );
  }
  return {
    /** The pepper of the key and token hashes. Unset: generated once into the data directory. */
    secretKey,
  };
}

export const keysConfig = configFromEnv('keys', parseKeysEnv);
export type KeysConfig = ConfigType<typeof keysConfig>;
