import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';

/**
 * The database's clock in epoch milliseconds: every lease is set and judged by it, so a process whose own clock is
 * off (by a minute, say) neither takes over live drains nor keeps dead ones.
 */
const DB_NOW_MS = `(extract(epoch from clock_timestamp()) * 1000)::bigint`;

/**
 * The SQL of the running-drain rows (`session_drain`): who runs a session's drain, and until when (by the
 * database's clock) its claim holds without renewal.
 */
@Injectable()
export class DrainsRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /**
   * Claims the session's drain for `owner`: false when a drain holds it already (in any process, live or not
   * yet closed) or the session is gone. The primary key decides between two processes claiming at once.
   */
  async claim(sessionId: string, owner: string, time: number, leaseMs: number): Promise<boolean> {
    const rows: unknown[] = await this.db.query(
      `WITH claimed AS (
         INSERT INTO session_drain (session_id, owner, time_started, lease_expires)
         SELECT $1::varchar, $2::varchar, $3::bigint, ${DB_NOW_MS} + $4::bigint
          WHERE EXISTS (SELECT 1 FROM session WHERE id = $1)
         ON CONFLICT (session_id) DO NOTHING RETURNING 1
       ) SELECT 1 FROM claimed`,
      [sessionId, owner, time, leaseMs],
    );
    return rows.length > 0;
  }

  /** Whether a process other than `owner` holds the session's drain. */
  async heldByOther(sessionId: string, owner: string): Promise<boolean> {
    const rows: unknown[] = await this.db.query(
      'SELECT 1 FROM session_drain WHERE session_id = $1 AND owner <> $2',
      [sessionId, owner],
    );
    return rows.length > 0;
  }

  /** Extends `owner`'s claims on these sessions in one statement; the sessions whose rows are still its own. */
  async renew(owner: string, sessionIds: string[], leaseMs: number): Promise<string[]> {
    const rows: Array<{ session_id: string }> = await this.db.query(
      `WITH renewed AS (
         UPDATE session_drain SET lease_expires = ${DB_NOW_MS} + $2::bigint
          WHERE owner = $1 AND session_id = ANY($3::varchar[])
         RETURNING session_id
       ) SELECT session_id FROM renewed`,
      [owner, leaseMs, sessionIds],
    );
    return rows.map((row) => row.session_id);
  }

  /**
   * Makes `owner` the holder of every drain whose lease has ended, except its own running ones (`keep`), for
   * `leaseMs`, and returns their sessions: one statement, so each expired drain is taken over by one process.
   */
  async takeExpired(owner: string, leaseMs: number, keep: string[]): Promise<string[]> {
    const rows: Array<{ session_id: string }> = await this.db.query(
      `WITH taken AS (
         UPDATE session_drain SET owner = $1, lease_expires = ${DB_NOW_MS} + $2::bigint
         WHERE lease_expires < ${DB_NOW_MS} AND NOT (owner = $1 AND session_id = ANY($3::varchar[]))
         RETURNING session_id
       ) SELECT session_id FROM taken`,
      [owner, leaseMs, keep],
    );
    return rows.map((row) => row.session_id);
  }

  /**
   * Deletes `owner`'s row of the session (`released`: false when it is not, or no longer, its own), and tells
   * whether inputs wait in the session's inbox. Input admitted after this statement is followed by its own
   * wake, whose claim then succeeds; input admitted before it is seen here.
   */
  async release(
    sessionId: string,
    owner: string,
    manager: EntityManager = this.db.manager,
  ): Promise<{ released: boolean; waiting: boolean }> {
    const rows: Array<{ released: boolean; waiting: boolean }> = await manager.query(
      `WITH released AS (
         DELETE FROM session_drain WHERE session_id = $1 AND owner = $2 RETURNING 1
       ) SELECT EXISTS (SELECT 1 FROM released) AS released,
           EXISTS (SELECT 1 FROM session_inbox WHERE session_id = $1 AND time_taken IS NULL) AS waiting`,
      [sessionId, owner],
    );
    return { released: rows[0].released, waiting: rows[0].waiting };
  }
}
