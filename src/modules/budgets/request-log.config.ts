import { configFromEnv } from '@/config/validate-env';
import { ConfigType } from '@nestjs/config';
import { int } from '@/config/env';

/** How many days the per-request log of the gateway is kept (`OUTPOST_REQUEST_LOG_DAYS`, default 30). */
export function parseRequestLogEnv(env: Record<string, string | undefined>) {
  return { days: int(env, 'OUTPOST_REQUEST_LOG_DAYS', 30, 1, 3650) };
}

export const requestLogConfig = configFromEnv('requestLog', parseRequestLogEnv);
export type RequestLogConfig = ConfigType<typeof requestLogConfig>;
