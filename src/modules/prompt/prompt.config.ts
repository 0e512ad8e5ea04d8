import { configFromEnv } from '@/config/validate-env';
import { ConfigType } from '@nestjs/config';
import { int } from '@/config/env';

export function parsePromptEnv(env: Record<string, string | undefined>) {
  return {
    /** Retries of a provider call that failed with 429, 5xx or a dropped connection, before the step fails. */
    providerRetries: int(env, 'OUTPOST_PROVIDER_RETRIES', 4, 0, 20),
    /** The first retry's wait (doubling after each, `Retry-After` honoured), and the longest wait. */
    providerRetryDelayMs: int(env, 'OUTPOST_PROVIDER_RETRY_DELAY_MS', 2_000, 0, 600_000),
    providerRetryMaxDelayMs: int(env, 'OUTPOST_PROVIDER_RETRY_MAX_DELAY_MS', 30_000, 0, 3_600_000),
    /** Steps of one run when the agent sets no `steps` limit. */
    maxSteps: int(env, 'OUTPOST_MAX_STEPS', 100, 1, 10_000),
    /**
     * How long a running drain's claim lasts unless renewed. Its process renews the claims of all its drains every
     * third of this; once one has passed (the process died or stalled), any process closes that drain as
     * interrupted, and each process looks for such drains every third of its own lease.
     */
    drainLeaseMs: int(env, 'OUTPOST_DRAIN_LEASE_MS', 30_000, 500, 3_600_000),
  };
}

export const promptConfig = configFromEnv('prompt', parsePromptEnv);
export type PromptConfig = ConfigType<typeof promptConfig>;
