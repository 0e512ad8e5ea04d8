import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * A fleet shares one secret key: the database keeps its fingerprint and a node with another one refuses to start.
 * A test that starts a second node (in process or as a real `dist/main.js`) on a database another node already
 * used gives it that node's secret, as an operator would: the same `OUTPOST_SECRET_KEY` when the first had it,
 * else a copy of the first's generated `<data dir>/secret-key`. A node whose environment names its own
 * `OUTPOST_SECRET_KEY` keeps it (the tests of the refusal).
 */
type Source = { secret: string } | { dataDir: string };

/** The nodes that started on each database, the first first (per test file: each has its own databases). */
const sources = new Map<string, Source[]>();

function secretOf(source: Source): string | undefined {
  if ('secret' in source) return source.secret;
  const file = join(source.dataDir, 'secret-key');
  return existsSync(file) ? readFileSync(file, 'utf8').trim() : undefined;
}

/** Gives the node about to start on `databaseUrl` the secret of the nodes before it, then remembers it. */
export function shareSecret(env: Record<string, string | undefined>): void {
  const databaseUrl = env.DATABASE_URL;
  const dataDir = env.OUTPOST_DATA_DIR;
  if (!databaseUrl || !dataDir) return;
  const own = env.OUTPOST_SECRET_KEY?.trim();
  const known = sources.get(databaseUrl) ?? [];
  sources.set(databaseUrl, known);
  if (own) {
    known.push({ secret: own });
    return;
  }
  const file = join(dataDir, 'secret-key');
  const shared = known.map(secretOf).find((secret) => secret !== undefined);
  if (shared !== undefined && !existsSync(file)) {
    mkdirSync(dataDir, { recursive: true });
    writeFileSync(file, shared + '\n', { mode: 0o600 });
  }
  known.push({ dataDir });
}

/** After a node with a generated secret started: its secret outlives its data folder (removed at its close). */
export function rememberSecret(env: Record<string, string | undefined>): void {
  const known = env.DATABASE_URL ? sources.get(env.DATABASE_URL) : undefined;
  const secret = env.OUTPOST_DATA_DIR ? secretOf({ dataDir: env.OUTPOST_DATA_DIR }) : undefined;
  if (known && secret !== undefined && !env.OUTPOST_SECRET_KEY?.trim()) known.push({ secret });
}
