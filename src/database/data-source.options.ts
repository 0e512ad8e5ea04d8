import { join } from 'node:path';
import { DataSourceOptions } from 'typeorm';
import { SnakeNamingStrategy } from './snake-naming.strategy';
import { watchedPg } from './watched-pool';

/** Entities and migrations are found by file name, so the app, the CLI and the tests share one list. */
const entities = [join(__dirname, '..', '**', '*.entity.{ts,js}')];
const migrations = [join(__dirname, 'migrations', '*.{ts,js}')];

/** The URL without its password, for logs and the start-up banner. */
export function describeDatabase(databaseUrl: string): string {
  const url = new URL(databaseUrl);
  url.password = url.password ? '***' : '';
  return `PostgreSQL at ${url.toString()}`;
}

/** `poolMax`: the connections this process keeps at most (DATABASE_POOL_MAX). */
export function dataSourceOptions(url: string, poolMax = 20): DataSourceOptions {
  return {
    type: 'postgres',
    url,
    entities,
    migrations,
    synchronize: false,
    migrationsRun: false,
    namingStrategy: new SnakeNamingStrategy(),
    migrationsTableName: 'migrations',
    // pg with a pool that marks failures to get a working connection (503s, not 500s: watched-pool.ts).
    driver: watchedPg,
    extra: { max: poolMax, connectionTimeoutMillis: 5_000 },
  };
}
