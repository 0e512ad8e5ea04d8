import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { DataSourceOptions } from 'typeorm';
import { PGliteDriver } from 'typeorm-pglite';
import { SnakeNamingStrategy } from './snake-naming.strategy';

/** Entities and migrations are found by file name, so the app, the CLI and the tests share one list. */
const entities = [join(__dirname, '..', '**', '*.entity.{ts,js}')];
const migrations = [join(__dirname, 'migrations', '*.{ts,js}')];

export interface DatabaseTarget {
  /** `DATABASE_URL`; when absent, embedded PGlite in `pgliteDir` (or in memory when that is absent too). */
  url?: string;
  pgliteDir?: string;
}

export function describeTarget(target: DatabaseTarget): string {
  if (target.url) {
    const url = new URL(target.url);
    url.password = url.password ? '***' : '';
    return `PostgreSQL at ${url.toString()}`;
  }
  return target.pgliteDir ? `embedded PGlite in ${target.pgliteDir}` : 'embedded PGlite in memory';
}

export function dataSourceOptions(target: DatabaseTarget): DataSourceOptions {
  const common = {
    type: 'postgres' as const,
    entities,
    migrations,
    synchronize: false,
    migrationsRun: false,
    namingStrategy: new SnakeNamingStrategy(),
    migrationsTableName: 'migrations',
  };
  if (target.url) {
    return { ...common, url: target.url, extra: { max: 20, connectionTimeoutMillis: 5_000 } };
  }
  if (target.pgliteDir) mkdirSync(target.pgliteDir, { recursive: true });
  return {
    ...common,
    driver: new PGliteDriver(target.pgliteDir ? { dataDir: target.pgliteDir } : {}).driver,
  };
}
