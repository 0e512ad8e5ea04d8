import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, ServerProcess, startServer, waitForHealth } from './processes';
import { openSse, SseClient } from './sse';
import { basic } from './test-app';

type Data = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/**
 * An instance server process on `databaseUrl` (a data folder of its own), once it serves: HTTP calls with the test
 * password (`call`), and its event stream, connected.
 */
export async function instanceProcess(databaseUrl: string, env: Record<string, string> = {}) {
  const dataDir = mkdtempSync(join(tmpdir(), 'outpost-instance-'));
  const server: ServerProcess = startServer({
    DATABASE_URL: databaseUrl,
    OUTPOST_PASSWORD: 'test-password',
    OUTPOST_DATA_DIR: dataDir,
    OUTPOST_CONFIG_DIR: join(dataDir, 'config'),
    LOG_LEVEL: 'warn',
    PORT: String(await freePort()),
    ...env,
  });
  await waitForHealth(server);
  const call = (path: string, body?: unknown, method = body === undefined ? 'GET' : 'POST') =>
    fetch(`${server.url}${path}`, {
      method,
      headers: { authorization: basic(), 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    }).then(async (res) => {
      const text = await res.text();
      return { status: res.status, body: (text ? JSON.parse(text) : undefined) as Data };
    });
  const stream: SseClient = await openSse(`${server.url}/api/event`, { authorization: basic() });
  await stream.until((events) => events.some((e) => e.type === 'server.connected'));
  return { ...server, call, stream };
}

export type InstanceProcess = Awaited<ReturnType<typeof instanceProcess>>;
