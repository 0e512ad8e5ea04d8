import 'reflect-metadata';
import { DataSource } from 'typeorm';
import { dataSourceOptions } from '../../src/database/data-source.options';
import { runMigrationsLocked } from '../../src/database/migrate';
import { admin, answers, databaseUrl, LOCAL_POSTGRES, templateName, writeInfo } from './test-database';

/**
 * Picks the database for the run: TEST_DATABASE_URL, else the local server, else embedded PGlite.
 * On a server, migrates once into a template database that each test file clones.
 */
export default async function globalSetup(): Promise<void> {
  const given = process.env.TEST_DATABASE_URL;
  const adminUrl = given ?? ((await answers(LOCAL_POSTGRES)) ? LOCAL_POSTGRES : undefined);
  if (given && !(await answers(given))) throw new Error(`TEST_DATABASE_URL does not answer: ${given}`);
  if (!adminUrl) {
    process.stdout.write('\ntests use embedded PGlite (no PostgreSQL server answered)\n');
    writeInfo({ mode: 'pglite' });
    return;
  }
  const template = templateName();
  const runPrefix = `outpost_t${process.pid}_`;
  await admin(adminUrl, async (client) => {
    const exists = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [template]);
    if (exists.rowCount) return;
    const building = `${template}_build_${process.pid}`;
    await client.query(`DROP DATABASE IF EXISTS "${building}"`);
    await client.query(`CREATE DATABASE "${building}"`);
    const dataSource = await new DataSource(
      dataSourceOptions({ url: databaseUrl(adminUrl, building) }),
    ).initialize();
    await runMigrationsLocked(dataSource);
    await dataSource.destroy();
    // Renamed only when complete, so a crash never leaves a half-migrated template behind.
    await client
      .query(`ALTER DATABASE "${building}" RENAME TO "${template}"`)
      .catch(async (error: unknown) => {
        await client.query(`DROP DATABASE IF EXISTS "${building}"`);
        const raced = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [template]);
        if (!raced.rowCount) throw error;
      });
  });
  const shown = new URL(adminUrl);
  process.stdout.write(`\ntests use PostgreSQL at ${shown.host} (template ${template})\n`);
  writeInfo({ mode: 'postgres', adminUrl, template, runPrefix });
}
