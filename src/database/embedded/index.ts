import { resolve } from 'node:path';
import { EmbeddedPostgres, EmbeddedRole } from './embedded-postgres';

export { DataFolderInUseError, EmbeddedPostgres } from './embedded-postgres';
export type { EmbeddedRole } from './embedded-postgres';

let role: EmbeddedRole = 'command';
const servers = new Map<string, { embedded: EmbeddedPostgres; url: Promise<string> }>();

/** `outpost serve` declares itself before start-up; every other process is a short command. */
export function setEmbeddedRole(value: EmbeddedRole): void {
  role = value;
}

/** The URL of the embedded server of `dataDir`, started or joined once per process and folder. */
export function embeddedDatabaseUrl(dataDir: string, log?: (line: string) => void): Promise<string> {
  const key = resolve(dataDir);
  let server = servers.get(key);
  if (!server) {
    const embedded = new EmbeddedPostgres(key, role, log);
    server = { embedded, url: embedded.acquire().then((url) => (embedded.watch(), url)) };
    servers.set(key, server);
    server.url.catch(() => servers.delete(key));
  }
  return server.url;
}

/** Stops the embedded servers this process owns (or the one of `dataDir`); call after the app's pool closed. */
export async function stopEmbeddedDatabase(dataDir?: string): Promise<void> {
  for (const [key, server] of servers) {
    if (dataDir && key !== resolve(dataDir)) continue;
    servers.delete(key);
    await server.embedded.release();
  }
}
