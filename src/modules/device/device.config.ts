import { configFromEnv } from '@/config/validate-env';
import { ConfigType } from '@nestjs/config';
import { ConfigError, int, optionalStr } from '@/config/env';

const CLIENT_ID = /^[A-Za-z0-9._-]{1,100}$/;

export function parseDeviceEnv(env: Record<string, string | undefined>) {
  const raw = optionalStr(env, 'OUTPOST_DEVICE_CLIENTS');
  const clients = raw
    ? [
        ...new Set(
          raw
            .split(',')
            .map((item) => item.trim())
            .filter(Boolean),
        ),
      ]
    : ['opencode-cli', 'outpost-cli'];
  if (clients.length === 0 || clients.some((client) => !CLIENT_ID.test(client))) {
    throw new ConfigError(
      'OUTPOST_DEVICE_CLIENTS',
      `must be a comma-separated list of client ids (letters, digits, . _ -) (got "${raw}")`,
    );
  }
  return {
    /** The `client_id`s allowed to start a device sign-in (public clients: no secret). */
    clients,
    /** Device sign-ins one address may start per minute. */
    codesPerMinute: int(env, 'OUTPOST_DEVICE_CODES_PER_MINUTE', 20, 1, 1_000_000),
    /** A refresh token not used for this many days expires; each refresh starts the period again. */
    refreshDays: int(env, 'OUTPOST_DEVICE_REFRESH_DAYS', 30, 1, 365),
  };
}

export const deviceConfig = configFromEnv('device', parseDeviceEnv);
export type DeviceConfig = ConfigType<typeof deviceConfig>;
