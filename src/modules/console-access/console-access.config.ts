import { configFromEnv } from '@/config/validate-env';
import { ConfigType } from '@nestjs/config';
import { bool, ConfigError, optionalStr } from '@/config/env';

/** The console's access settings: the pepper of key and token hashes, and the public origin. */
export function parseConsoleAccessEnv(env: Record<string, string | undefined>) {
  const origin = optionalStr(env, 'OUTPOST_CONSOLE_ORIGIN');
  if (origin !== undefined) {
    let parsed: URL | undefined;
    try {
      parsed = new URL(origin);
    } catch {
      parsed = undefined;
    }
    if (
      !parsed ||
      !['http:', 'https:'].includes(parsed.protocol) ||
      parsed.origin !== origin.replace(/\/$/, '')
    ) {
      throw new ConfigError(
        'OUTPOST_CONSOLE_ORIGIN',
        `must be an origin like https://outpost.example.com (got "${origin}")`,
      );
    }
  }
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
    /**
     * `OUTPOST_SECRET_KEY_ROTATE`: the secret changed on purpose, so its fingerprint replaces the one the database
     * holds (otherwise a node with another secret than the database's refuses to start).
     */
    rotateSecretKey: bool(env, 'OUTPOST_SECRET_KEY_ROTATE', false),
    /** The public origin of the console behind a proxy; cookie-authenticated changes must come from it. */
    origin: origin?.replace(/\/$/, ''),
  };
}

export const consoleAccessConfig = configFromEnv('consoleAccess', parseConsoleAccessEnv);
export type ConsoleAccessConfig = ConfigType<typeof consoleAccessConfig>;
