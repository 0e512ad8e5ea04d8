import { configFromEnv } from '@/config/validate-env';
import { ConfigType } from '@nestjs/config';
import { int } from '@/config/env';

export function parseEventsEnv(env: Record<string, string | undefined>) {
  return {
    /** A heartbeat this often, on every event stream, keeps proxies from closing an idle one. */
    heartbeatMs: int(env, 'OUTPOST_EVENT_HEARTBEAT_MS', 15_000, 10, 3_600_000),
    /** Bytes of events a stream may hold back for a client that reads too slowly before it is disconnected. */
    maxBufferedBytes: int(env, 'OUTPOST_EVENT_MAX_BUFFERED_BYTES', 1024 * 1024, 1024, 1024 * 1024 * 1024),
  };
}

export const eventsConfig = configFromEnv('events', parseEventsEnv);
export type EventsConfig = ConfigType<typeof eventsConfig>;
