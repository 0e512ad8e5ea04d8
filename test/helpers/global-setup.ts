import 'reflect-metadata';
import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { dataSourceOptions } from '../../src/database/data-source.options';
import { EmbeddedPostgres } from '../../src/database/embedded';
import { runMigrationsLocked } from '../../src/database/migrate';
import { admin, answers, databaseUrl, LOCAL_POSTGRES, templateName, writeInfo } from './test-database';

/** The embedded server of this run, for the global teardown (which shares globalThis with the setup). */
export const EMBEDDED_KEY = Symbol.for('outpost.test.embedded');

/** The product's default: an embedded PostgreSQL of this run, in a fresh folder. */
async function startEmbedded(): Promise<string> {
  const dataDir = join(tmpdir(), `outpost-test-embedded-${process.pid}`);
  rmSync(dataDir, { recursive: true, force: true });
  const embedded = new EmbeddedPostgres(dataDir, 'server');
  (globalThis as Record<symbol, unknown>)[EMBEDDED_KEY] = embedded;
  return databaseUrl(await embedded.acquire(), 'postgres');
}

/**
 * Picks the database for the run: TEST_DATABASE_URL, else the local server, else (or with
 * OUTPOST_TEST_EMBEDDED=1) the embedded PostgreSQL that `npm start` uses by default.
 * Migrates once into a template database that each test file clones.
 */
export default async function globalSetup(): Promise<void> {
  const forceEmbedded = process.env.OUTPOST_TEST_EMBEDDED === '1';
  const given = forceEmbedded ? undefined : process.env.TEST_DATABASE_URL;
  if (given && !(await answers(given))) throw new Error(`TEST_DATABASE_URL does not answer: ${given}`);
  const server = given ?? (!forceEmbedded && (await answers(LOCAL_POSTGRES)) ? LOCAL_POSTGRES : undefined);
  const embedded = server === undefined;
  const adminUrl = server ?? (await startEmbedded());
  const template = templateName();
  const runPrefix = `outpost_t${process.pid}_`;
  await admin(adminUrl, async (client) => {
    const exists = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [template]);
    if (exists.rowCount) return;
    const building = `${template}_build_${process.pid}`;
    await client.query(`DROP DATABASE IF EXISTS "${building}"`);
    await client.query(`CREATE DATABASE "${building}"`);
    const dataSource = await new DataSource(dataSourceOptions(databaseUrl(adminUrl, building))).initialize();
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
  const what = embedded ? 'the embedded PostgreSQL (the default of `npm start`)' : 'PostgreSQL';
  process.stdout.write(`\ntests use ${what} at ${shown.host} (template ${template})\n`);
  writeInfo({ embedded, adminUrl, template, runPrefix });
}
