import { createHash } from 'node:crypto';
import type { Pool } from 'pg';
import { DataSource } from 'typeorm';
import type { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver';

const statementNames = new Map<string, string>();
/**
 * The most SQL texts given a name. Each connection keeps every statement it prepared; page sizes written into
 * the text (any of 1 to 1000) would otherwise grow that without bound. Texts past the cap run unnamed.
 */
const MAX_NAMED_STATEMENTS = 256;

/** A stable name per SQL text, so each pooled connection prepares (parses and plans) the statement once. */
function statementName(sql: string): string | undefined {
  let name = statementNames.get(sql);
  if (!name && statementNames.size < MAX_NAMED_STATEMENTS) {
    name = `outpost_${createHash('sha1').update(sql).digest('hex').slice(0, 16)}`;
    statementNames.set(sql, name);
  }
  return name;
}

/** pg's connection pool under TypeORM's PostgreSQL driver (for LISTEN, pool gauges, and the hot paths below). */
export function pgPool(db: DataSource): Pool {
  return (db.driver as PostgresDriver).master as Pool;
}

/**
 * A single statement outside any transaction, straight on pg's connection pool.
 * TypeORM's query runner around the same call costs about 30 µs of CPU a query; hot paths use this instead: reads
 * of sessions, and the gateway's budget hold and usage batch (each one atomic statement). The statement is a named
 * prepared one (up to the cap). Transactions stay with TypeORM.
 */
export async function poolQuery<T>(db: DataSource, sql: string, params: unknown[]): Promise<T[]> {
  const result = await pgPool(db).query({ name: statementName(sql), text: sql, values: params });
  return result.rows as T[];
}
