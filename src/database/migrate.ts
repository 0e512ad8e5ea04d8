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
    await refuseNewerSchema(dataSource);
    const ran = await dataSource.runMigrations({ transaction: 'each' });
    return ran.map((migration) => migration.name);
  } finally {
    await runner.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]).catch(() => undefined);
    await runner.release();
  }
}

/** The schema was migrated by a newer Outpost than this one. */
export class NewerSchemaError extends Error {}

/**
 * A process must not run against a schema a newer version migrated (it would write rows the newer code does not
 * expect, or miss columns it needs): refused in one line, naming the migrations it does not know.
 */
async function refuseNewerSchema(dataSource: DataSource): Promise<void> {
  const table = dataSource.options.migrationsTableName ?? 'migrations';
  const exists = (await dataSource.query('SELECT to_regclass($1) AS t', [table])) as Array<{
    t: string | null;
  }>;
  if (!exists[0].t) return;
  const applied = (await dataSource.query(`SELECT name FROM "${table}"`)) as Array<{ name: string }>;
  const known = new Set(
    dataSource.migrations.map((migration) => migration.name ?? migration.constructor.name),
  );
  const unknown = applied.map((row) => row.name).filter((name) => !known.has(name));
  if (unknown.length > 0)
    throw new NewerSchemaError(
      `the database schema is newer than this Outpost (it has migration ${unknown.join(', ')}); upgrade Outpost, or use another database`,
    );
}
