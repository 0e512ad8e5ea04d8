import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, ServerProcess, startServer, waitForHealth } from './processes';
import { ScriptedModelServer } from './scripted-model-server';

/**
 * A real `outpost serve` with the console and the gateway on `databaseUrl`, its catalogue one provider `up` at the
 * scripted `upstream` (model `small`: $1 / $2 per million tokens, key `upstreamKey`); `env` adds to its environment.
 */
export async function startGatewayServer(
  upstream: ScriptedModelServer,
  databaseUrl: string,
  upstreamKey: string,
  env: Record<string, string> = {},
): Promise<ServerProcess> {
  const dir = mkdtempSync(join(tmpdir(), 'outpost-gateway-'));
  writeFileSync(
    join(dir, 'gateway.yaml'),
    `providers:\n  up:\n    base_url: ${upstream.baseURL}\n    schema: openai-chat\n    api_key_env: UP_KEY\n    models:\n      small: { prices: { input: 1, output: 2 } }\n`,
  );
  const server = startServer({
    DATABASE_URL: databaseUrl,
    PORT: String(await freePort()),
    OUTPOST_DATA_DIR: dir,
    OUTPOST_SURFACES: 'console,inference',
    OUTPOST_GATEWAY_CONFIG: join(dir, 'gateway.yaml'),
    UP_KEY: upstreamKey,
    ...env,
  });
  await waitForHealth(server);
  return server;
}
