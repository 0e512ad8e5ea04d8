import { ConfigType } from '@nestjs/config';
import { ConfigError, optionalStr } from '@/config/env';
import { configFromEnv } from '@/config/validate-env';
import { parseAllowList } from './outbound-policy';

/** The name stays the connections' (where the allow-list began); it now covers every outbound call aimed by a caller. */
export const ALLOW_VARIABLE = 'OUTPOST_CONNECTIONS_ALLOW';

/**
 * What outbound calls aimed by a user, a model or a console may reach inside the network: nothing by default;
 * `OUTPOST_CONNECTIONS_ALLOW` names hosts, addresses or CIDR ranges (`127.0.0.1,10.1.2.0/24,llm.internal`).
 */
export function parseOutboundEnv(env: Record<string, string | undefined>) {
  const allow = parseAllowList(optionalStr(env, ALLOW_VARIABLE), (problem) => {
    throw new ConfigError(ALLOW_VARIABLE, problem);
  });
  return { allow };
}

export const outboundConfig = configFromEnv('outbound', parseOutboundEnv);
export type OutboundConfig = ConfigType<typeof outboundConfig>;
