import { configFromEnv } from '@/config/validate-env';
import { ConfigType } from '@nestjs/config';
import { int, oneOf } from '@/config/env';

export const SIGNUP_MODES = ['first', 'open', 'invite', 'closed'] as const;
export type SignupMode = (typeof SIGNUP_MODES)[number];

export function parseIdentityEnv(env: Record<string, string | undefined>) {
  return {
    /**
     * Who may create an account: the first person only, then people holding an invitation (the default: a server
     * reachable from a network is not open to anyone); anyone; only people holding an invitation; nobody (CLI only).
     */
    signup: oneOf<SignupMode>(env, 'OUTPOST_CONSOLE_SIGNUP', SIGNUP_MODES, 'first'),
    /** Sign-ups allowed per address per hour. */
    signupsPerHour: int(env, 'OUTPOST_SIGNUPS_PER_HOUR', 20, 1, 1_000_000),
    /** "Forgot password?" requests allowed per address per hour. */
    passwordResetsPerHour: int(env, 'OUTPOST_PASSWORD_RESETS_PER_HOUR', 10, 1, 1_000_000),
    sessionDays: int(env, 'OUTPOST_CONSOLE_SESSION_DAYS', 30, 1, 365),
  };
}

export const identityConfig = configFromEnv('identity', parseIdentityEnv);
export type IdentityConfig = ConfigType<typeof identityConfig>;
