import { configFromEnv } from '@/config/validate-env';
import { ConfigType } from '@nestjs/config';
import { ConfigError, optionalStr } from '@/config/env';
import { OutboundPolicy, parseAllowList } from '@/common/net/outbound-policy';

const ALLOW = 'OUTPOST_CONNECTIONS_ALLOW';

/**
 * What connections may reach inside the network: nothing by default; `OUTPOST_CONNECTIONS_ALLOW` names hosts,
 * addresses or CIDR ranges (`127.0.0.1,10.1.2.0/24,llm.internal`) for self-hosted models on a private network.
 */
export function parseConnectionsEnv(env: Record<string, string | undefined>) {
  const allow = parseAllowList(optionalStr(env, ALLOW), (problem) => {
    throw new ConfigError(ALLOW, problem);
  });
  return { allow };
}

export const connectionsConfig = configFromEnv('connections', parseConnectionsEnv);
export type ConnectionsConfig = ConfigType<typeof connectionsConfig>;

/** The policy every connection's base URL is held to, at creation, at update and on every call. */
export const outboundPolicyProvider = {
  provide: OutboundPolicy,
  inject: [connectionsConfig.KEY],
  useFactory: (config: ConnectionsConfig) => new OutboundPolicy(config.allow),
};
