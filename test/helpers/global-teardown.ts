import { rmSync } from 'node:fs';
import type { EmbeddedPostgres } from '../../src/database/embedded';
import { EMBEDDED_KEY } from './global-setup';
import { admin, readInfo } from './test-database';

/** Drops any database of this run that a crashed test file left behind; stops the run's embedded server. */
export default async function globalTeardown(): Promise<void> {
  const info = readInfo();
  await admin(info.adminUrl, async (client) => {
    const left = await client.query('SELECT datname FROM pg_database WHERE datname LIKE $1', [
      `${info.runPrefix}%`,
    ]);
    for (const row of left.rows as Array<{ datname: string }>) {
      await client.query(`DROP DATABASE IF EXISTS "${row.datname}" WITH (FORCE)`);
    }
  });
  const embedded = (globalThis as Record<symbol, EmbeddedPostgres | undefined>)[EMBEDDED_KEY];
  if (embedded) {
    await embedded.release();
    rmSync(embedded.dataDir, { recursive: true, force: true });
  }
}
