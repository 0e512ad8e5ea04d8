import { parseEventsEnv } from '../modules/events/events.config';
import { parseInstanceAuthEnv } from '../modules/instance-auth/instance-auth.config';
import { parseLocationConfigEnv } from '../modules/location-config/location-config.config';
import { parsePluginsEnv } from '../modules/plugins/plugins.config';
import { parseIdentityEnv } from '../modules/identity/identity.config';
import { parseKeysEnv } from '../modules/keys/keys.config';
import { parseDeviceEnv } from '../modules/device/device.config';
import { parseLocationsEnv } from '../modules/locations/locations.config';
import { parsePairingEnv } from '../modules/pairing/pairing.config';
import { parsePromptEnv } from '../modules/prompt/prompt.config';
import { parseAppEnv, parseDatabaseEnv } from './env';
import { parseGatewayEnv } from '../modules/inference/gateway.config';
import { parseConnectionsEnv } from '../modules/connections/connections.config';
import { parseRequestLogEnv } from '../modules/budgets/request-log.config';
import { parseConsoleLinkEnv } from '../modules/console-link/console-link.config';

type Env = Record<string, string | undefined>;

/** Every module's parser, so `main` checks all variables before anything starts. Add new ones here. */
const parsers: Array<(env: Env) => unknown> = [
  parseAppEnv,
  parseDatabaseEnv,
  parseInstanceAuthEnv,
  parseLocationsEnv,
  parsePairingEnv,
  parseEventsEnv,
  parseLocationConfigEnv,
  parsePluginsEnv,
  parseIdentityEnv,
  parseKeysEnv,
  parseDeviceEnv,
  parsePromptEnv,
  parseGatewayEnv,
  parseConnectionsEnv,
  parseConsoleLinkEnv,
  parseRequestLogEnv,
];

export function validateEnv(env: Env): void {
  for (const parse of parsers) parse(env);
}
