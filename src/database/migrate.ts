import { DataSource } from 'typeorm';

/** Any fixed number works; it names "Outpost migrations" among the advisory locks of this database. */
const MIGRATION_LOCK_KEY = 4_096_001;

/**
 * Runs pending migrations while holding a Postgres advisory lock, so two processes starting together
 * migrate once: the second waits for the lock, then finds nothing pending.
 */
export async function runMigrationsLocked(dataSource: DataSource): Promise<string[]> {
  const runner = dataSource.createQueryRunner();
  await runner.connect();
  try {
    await runner.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    const ran = await dataSource.runMigrations({ transaction: 'each' });
    return ran.map((migration) => migration.name);
  } finally {
    await runner.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]).catch(() => undefined);
    await runner.release();
  }
}
