import { DataSource, EntityManager, QueryRunner } from 'typeorm';

/** The rows a statement returned (with RETURNING) and how many rows it inserted, changed or deleted. */
export interface Executed<T> {
  rows: T[];
  count: number;
}

/**
 * Runs one statement and answers its rows and its row count, the same way for every command. The one place
 * that answers "did this UPDATE/DELETE hit a row": TypeORM's plain `query()` answers UPDATE and DELETE as
 * `[rows, count]` but INSERT and SELECT as rows, and drops the count of a statement without RETURNING.
 */
export async function execute<T = Record<string, unknown>>(
  db: DataSource | EntityManager,
  sql: string,
  params: unknown[] = [],
): Promise<Executed<T>> {
  const inTransaction = db instanceof EntityManager ? db.queryRunner : undefined;
  const runner: QueryRunner =
    inTransaction ?? (db instanceof EntityManager ? db.connection : db).createQueryRunner();
  try {
    const result = await runner.query(sql, params, true);
    const rows = (result.records ?? []) as T[];
    return { rows, count: result.affected ?? rows.length };
  } finally {
    if (!inTransaction) await runner.release();
  }
}
