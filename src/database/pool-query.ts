import { DataSource } from 'typeorm';
import type { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver';

interface Pool {
  query(sql: string, params: unknown[]): Promise<{ rows: unknown[] }>;
}

/**
 * A single read outside any transaction, straight on the driver's connection pool (pg's, or PGlite's).
 * TypeORM's query runner around the same call costs about 30 µs of CPU a query; hot read paths (get and
 * list sessions) use this instead. Writes and transactions stay with TypeORM.
 */
export async function poolQuery<T>(db: DataSource, sql: string, params: unknown[]): Promise<T[]> {
  const pool = (db.driver as PostgresDriver).master as Pool;
  return (await pool.query(sql, params)).rows as T[];
}
