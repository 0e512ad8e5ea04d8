import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { InboxItem } from './inbox.types';

interface InboxRow {
  seq: string;
  session_id: string;
  id: string;
  type: InboxItem['type'];
  delivery: InboxItem['delivery'];
  payload: InboxItem['payload'];
  time_created: string;
}

/** A waiting inbox item with its admission order. */
export type WaitingItem = InboxItem & { seq: string };

function toItem(row: InboxRow): WaitingItem {
  return {
    seq: row.seq,
    id: row.id,
    sessionID: row.session_id,
    timeCreated: Number(row.time_created),
    type: row.type,
    delivery: row.delivery,
    payload: row.payload,
  } as WaitingItem;
}

/**
 * The SQL of inboxes and of the running-drain markers. Statements that change rows and return them are written
 * as `WITH … SELECT`, which both drivers (pg, embedded PGlite) answer with plain rows.
 */
@Injectable()
export class InboxRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  transaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.db.transaction(work);
  }

  /**
   * Admits an item unless its id is already an inbox item or a message of the session: false then. One
   * statement, so two concurrent retries of one prompt cannot both get in.
   */
  async admit(item: InboxItem): Promise<boolean> {
    const rows: unknown[] = await this.db.query(
      `INSERT INTO session_inbox (session_id, id, type, delivery, payload, time_created)
       SELECT $1::varchar, $2::varchar, $3, $4, $5::jsonb, $6::bigint
       WHERE NOT EXISTS (SELECT 1 FROM session_message WHERE session_id = $1 AND id = $2)
       ON CONFLICT (session_id, id) DO NOTHING
       RETURNING seq`,
      [item.sessionID, item.id, item.type, item.delivery, JSON.stringify(item.payload), item.timeCreated],
    );
    return rows.length > 0;
  }

  /** The session's waiting items in admission order. */
  async waiting(sessionId: string): Promise<WaitingItem[]> {
    const rows: InboxRow[] = await this.db.query(
      'SELECT * FROM session_inbox WHERE session_id = $1 AND time_taken IS NULL ORDER BY seq',
      [sessionId],
    );
    return rows.map(toItem);
  }

  /** Marks an item taken; false when another drain (or a delete) got there first. */
  async take(seq: string, time: number, manager: EntityManager): Promise<boolean> {
    const rows: unknown[] = await manager.query(
      `WITH taken AS (
         UPDATE session_inbox SET time_taken = $2 WHERE seq = $1 AND time_taken IS NULL RETURNING 1
       ) SELECT 1 FROM taken`,
      [seq, time],
    );
    return rows.length > 0;
  }

  async markRunning(sessionId: string, time: number): Promise<void> {
    await this.db.query(
      `INSERT INTO session_drain (session_id, time_started) SELECT $1::varchar, $2::bigint
       WHERE EXISTS (SELECT 1 FROM session WHERE id = $1)
       ON CONFLICT (session_id) DO UPDATE SET time_started = EXCLUDED.time_started`,
      [sessionId, time],
    );
  }

  async markStopped(sessionId: string): Promise<void> {
    await this.db.query('DELETE FROM session_drain WHERE session_id = $1', [sessionId]);
  }

  /** Drains left running by a process that is gone; each is returned once (the rows are deleted). */
  async takeLeftovers(): Promise<string[]> {
    const rows: Array<{ session_id: string }> = await this.db.query(
      'WITH gone AS (DELETE FROM session_drain RETURNING session_id) SELECT session_id FROM gone',
    );
    return rows.map((row) => row.session_id);
  }
}
