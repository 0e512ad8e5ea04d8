import { configFromEnv } from '@/config/validate-env';
import { ConfigType } from '@nestjs/config';
import { int, optionalStr, str } from '@/config/env';

export function parseInstanceAuthEnv(env: Record<string, string | undefined>) {
  return {
    username: str(env, 'OUTPOST_USERNAME', 'opencode'),
    /** Unset: a random password is generated once and kept in the data directory. */
    password: optionalStr(env, 'OUTPOST_PASSWORD') ?? optionalStr(env, 'OPENCODE_SERVER_PASSWORD'),
    /** Failed attempts one address may make within the window before it gets 429. */
    maxFailures: int(env, 'OUTPOST_AUTH_MAX_FAILURES', 30, 1, 1_000_000),
    failureWindowSeconds: int(env, 'OUTPOST_AUTH_FAILURE_WINDOW', 60, 1, 86_400),
    /** Lifetime of a session token issued by pairing (30 days). */
    sessionTtlSeconds: int(env, 'OUTPOST_SESSION_TTL', 30 * 24 * 3600, 60, 366 * 24 * 3600),
  };
}

export const instanceAuthConfig = configFromEnv('instanceAuth', parseInstanceAuthEnv);
export type InstanceAuthConfig = ConfigType<typeof instanceAuthConfig>;
