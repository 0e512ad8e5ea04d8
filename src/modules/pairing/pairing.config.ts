import { ConfigType, registerAs } from '@nestjs/config';
import { int, str } from '../../config/env';

export function parsePairingEnv(env: Record<string, string | undefined>) {
  return {
    /** How long a pairing code may be redeemed, in seconds. */
    codeTtlSeconds: int(env, 'OUTPOST_PAIRING_TTL', 300, 10, 86_400),
    /** Where a browser goes after redeeming a pairing link. */
    webUrl: str(env, 'OUTPOST_WEB_URL', '/'),
  };
}

export const pairingConfig = registerAs('pairing', () => parsePairingEnv(process.env));
export type PairingConfig = ConfigType<typeof pairingConfig>;
