import { configFromEnv } from '@/config/validate-env';
import { ConfigType } from '@nestjs/config';
import { ConfigError, int, str } from '@/config/env';

/** A path on this server (`/`, `/app`) or an absolute http(s) URL; nothing else is a place to send a browser. */
function webUrl(env: Record<string, string | undefined>, name: string, fallback: string): string {
  const value = str(env, name, fallback);
  if (value.startsWith('/') && !value.startsWith('//') && !/[\s\\]/.test(value)) return value;
  try {
    const url = new URL(value);
    if (url.protocol === 'http:' || url.protocol === 'https:') return value;
  } catch {}
  throw new ConfigError(name, `must be a path starting with / or an http(s) URL (got "${value}")`);
}

export function parsePairingEnv(env: Record<string, string | undefined>) {
  return {
    /** How long a pairing code may be redeemed, in seconds. */
    codeTtlSeconds: int(env, 'OUTPOST_PAIRING_TTL', 300, 10, 86_400),
    /** Where a browser goes after redeeming a pairing link. */
    webUrl: webUrl(env, 'OUTPOST_WEB_URL', '/'),
  };
}

export const pairingConfig = configFromEnv('pairing', parsePairingEnv);
export type PairingConfig = ConfigType<typeof pairingConfig>;
