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
 * The SQL of inboxes. Statements that change rows and return them go through `execute` (rows and count).
 */
@Injectable()
export class InboxRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  transaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.db.transaction(work);
  }

  /**
   * Admits an item unless its id is already an inbox item or a message of the session: its admission sequence
   * number, or undefined then. One statement, so two concurrent retries of one prompt cannot both get in.
   */
  async admit(item: InboxItem): Promise<number | undefined> {
    const rows: Array<{ seq: string | number }> = await this.db.query(
      `INSERT INTO session_inbox (session_id, id, type, delivery, payload, time_created)
       SELECT $1::varchar, $2::varchar, $3, $4, $5::jsonb, $6::bigint
       WHERE NOT EXISTS (SELECT 1 FROM session_message WHERE session_id = $1 AND id = $2)
       ON CONFLICT (session_id, id) DO NOTHING
       RETURNING seq`,
      [item.sessionID, item.id, item.type, item.delivery, JSON.stringify(item.payload), item.timeCreated],
    );
    return rows.length > 0 ? Number(rows[0].seq) : undefined;
  }

  /** The session's waiting items in admission order. */
  async waiting(sessionId: string): Promise<WaitingItem[]> {
    const rows: InboxRow[] = await this.db.query(
      'SELECT * FROM session_inbox WHERE session_id = $1 AND time_taken IS NULL ORDER BY seq',
      [sessionId],
    );
    return rows.map(toItem);
  }

  /**
   * Marks an item taken by the drain of `owner`; false when it is gone or taken, or when that drain no longer
   * holds the session. The claim row is locked (shared) until the transaction ends, so another process cannot take
   * the drain over in between: an item is taken only by the drain that holds the session.
   */
  async take(seq: string, time: number, owner: string, manager: EntityManager): Promise<boolean> {
    const rows: unknown[] = await manager.query(
      `WITH taken AS (
         UPDATE session_inbox SET time_taken = $2
         WHERE seq = $1 AND time_taken IS NULL AND EXISTS (
           SELECT 1 FROM session_drain d WHERE d.session_id = session_inbox.session_id AND d.owner = $3 FOR SHARE
         )
         RETURNING 1
       ) SELECT 1 FROM taken`,
      [seq, time, owner],
    );
    return rows.length > 0;
  }
}
