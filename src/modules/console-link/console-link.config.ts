import { configFromEnv } from '@/config/validate-env';
import { ConfigType } from '@nestjs/config';
import { int } from '@/config/env';

export function parseConsoleLinkEnv(env: Record<string, string | undefined>) {
  return {
    /** How often a signed-in instance fetches the workspace config (and picks up `outpost login`/`logout`). */
    pollMs: int(env, 'OUTPOST_CONSOLE_POLL_MS', 60_000, 100, 3_600_000),
  };
}

export const consoleLinkConfig = configFromEnv('consoleLink', parseConsoleLinkEnv);
export type ConsoleLinkConfig = ConfigType<typeof consoleLinkConfig>;
