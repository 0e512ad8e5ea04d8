import { ConfigType, registerAs } from '@nestjs/config';
import { optionalStr, str } from '../../config/env';

export function parseInstanceAuthEnv(env: Record<string, string | undefined>) {
  return {
    username: str(env, 'OUTPOST_USERNAME', 'opencode'),
    /** Unset: a random password is generated once and kept in the data directory. */
    password: optionalStr(env, 'OUTPOST_PASSWORD') ?? optionalStr(env, 'OPENCODE_SERVER_PASSWORD'),
  };
}

export const instanceAuthConfig = registerAs('instanceAuth', () => parseInstanceAuthEnv(process.env));
export type InstanceAuthConfig = ConfigType<typeof instanceAuthConfig>;
