import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { PoolClient } from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { DataSource, EntityManager } from 'typeorm';
import type { PostgresQueryRunner } from 'typeorm/driver/postgres/PostgresQueryRunner';
import { copyText } from '@/database/copy-text';
import type { SessionRow } from './sessions.repository';

const COPY_MESSAGES = `COPY session_message (session_id, id, type, data, time_created, time_completed, tokens_input,
  tokens_output, tokens_reasoning, tokens_cache_read, tokens_cache_write, cost) FROM STDIN`;

export interface NewMessage {
  sessionId: string;
  id: string;
  type: string;
  data: Record<string, unknown>;
  timeCreated: number;
  timeCompleted?: number | null;
  tokens?: { input: number; output: number; reasoning: number; cacheRead: number; cacheWrite: number } | null;
  /** Micro-cents. */
  cost?: number | null;
}

export interface MessageRow {
  session_id: string;
  id: string;
  type: string;
  data: Record<string, unknown>;
  time_created: string;
  time_completed: string | null;
  tokens_input: string | null;
  tokens_output: string | null;
  tokens_reasoning: string | null;
  tokens_cache_read: string | null;
  tokens_cache_write: string | null;
  cost: string | null;
}

/** A message row with `data` still JSON text: a reader parses one row at a time, not a whole page at once. */
export interface MessageTextRow extends Omit<MessageRow, 'data'> {
  data: string;
}

/** The columns a transcript reads (not the usage columns PostgreSQL derives for stats). */
const MESSAGE_COLUMNS = `session_id, id, type, data, time_created, time_completed, tokens_input, tokens_output,
  tokens_reasoning, tokens_cache_read, tokens_cache_write, cost`;
const MESSAGE_TEXT_COLUMNS = MESSAGE_COLUMNS.replace(' data,', ' data::text AS data,');

/** The SQL of a session's transcript: messages written, completed, paged, copied for forks, cut back for reverts. */
@Injectable()
export class SessionMessagesRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  async insertMessage(message: NewMessage, manager: EntityManager = this.db.manager): Promise<void> {
    const tokens = message.tokens ?? null;
    await manager.query(
      `INSERT INTO session_message (session_id, id, type, data, time_created, time_completed, tokens_input,
         tokens_output, tokens_reasoning, tokens_cache_read, tokens_cache_write, cost)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)`,
      [
        message.sessionId,
        message.id,
        message.type,
        JSON.stringify(message.data),
        message.timeCreated,
        message.timeCompleted ?? null,
        tokens?.input ?? null,
        tokens?.output ?? null,
        tokens?.reasoning ?? null,
        tokens?.cacheRead ?? null,
        tokens?.cacheWrite ?? null,
        message.cost ?? null,
      ],
    );
  }

  /** Rewrites an open message's variant members (and completion time); false when it is gone or closed. */
  /** Deletes the messages from `messageID` on (a revert made final by the next prompt). */
  async deleteMessagesFrom(sessionId: string, messageId: string): Promise<number> {
    const rows: unknown[] = await this.db.manager.query(
      `WITH deleted AS (DELETE FROM session_message WHERE session_id = $1 AND id >= $2 RETURNING 1)
       SELECT 1 FROM deleted`,
      [sessionId, messageId],
    );
    return rows.length;
  }

  /** Deletes one message; false when it is not there. */
  async deleteMessage(sessionId: string, messageId: string): Promise<boolean> {
    const rows: unknown[] = await this.db.manager.query(
      `WITH deleted AS (DELETE FROM session_message WHERE session_id = $1 AND id = $2 RETURNING 1)
       SELECT 1 FROM deleted`,
      [sessionId, messageId],
    );
    return rows.length > 0;
  }

  /** Rewrites a message's data whether or not it is complete (pruned tool outputs of closed steps). */
  async rewriteMessage(sessionId: string, id: string, data: Record<string, unknown>): Promise<boolean> {
    const rows: unknown[] = await this.db.manager.query(
      `WITH updated AS (
         UPDATE session_message SET data = $3 WHERE session_id = $1 AND id = $2 RETURNING 1
       ) SELECT 1 FROM updated`,
      [sessionId, id, JSON.stringify(data)],
    );
    return rows.length > 0;
  }

  async updateMessage(
    sessionId: string,
    id: string,
    data: Record<string, unknown>,
    timeCompleted: number | null,
    manager: EntityManager = this.db.manager,
  ): Promise<boolean> {
    const rows: unknown[] = await manager.query(
      `WITH updated AS (
         UPDATE session_message SET data = $3, time_completed = $4
         WHERE session_id = $1 AND id = $2 AND time_completed IS NULL RETURNING 1
       ) SELECT 1 FROM updated`,
      [sessionId, id, JSON.stringify(data), timeCompleted],
    );
    return rows.length > 0;
  }

  /**
   * Closes a message: its final members, completion time, tokens and cost, with the same usage added to the
   * session's totals, in ONE statement (so atomically, in one round trip). `next`, when given, is inserted by the
   * same statement (the agent loop opens its next step as it closes one). Undefined when either row is gone.
   */
  async completeMessage(
    sessionId: string,
    id: string,
    data: Record<string, unknown>,
    timeCompleted: number,
    usage: { input: number; output: number; reasoning: number; cacheRead: number; cacheWrite: number },
    cost: number,
    next?: NewMessage,
  ): Promise<SessionRow | undefined> {
    const params: unknown[] = [
      sessionId,
      id,
      JSON.stringify(data),
      timeCompleted,
      usage.input,
      usage.output,
      usage.reasoning,
      usage.cacheRead,
      usage.cacheWrite,
      cost,
    ];
    if (next) params.push(next.id, next.type, JSON.stringify(next.data), next.timeCreated);
    const rows: SessionRow[] = await this.db.query(
      `WITH message AS (
         UPDATE session_message SET data = $3, time_completed = $4, tokens_input = $5, tokens_output = $6,
           tokens_reasoning = $7, tokens_cache_read = $8, tokens_cache_write = $9, cost = $10
         WHERE session_id = $1 AND id = $2 RETURNING 1
       ), updated AS (
         UPDATE session SET tokens_input = tokens_input + $5, tokens_output = tokens_output + $6,
           tokens_reasoning = tokens_reasoning + $7, tokens_cache_read = tokens_cache_read + $8,
           tokens_cache_write = tokens_cache_write + $9, cost = cost + $10, time_updated = $4
         WHERE id = $1 AND EXISTS (SELECT 1 FROM message) RETURNING *
       )${
         next
           ? `, opened AS (
         INSERT INTO session_message (session_id, id, type, data, time_created)
         SELECT $1, $11, $12, $13, $14 WHERE EXISTS (SELECT 1 FROM updated) RETURNING 1
       )`
           : ''
       }
       SELECT * FROM updated`,
      params,
    );
    return rows[0];
  }

  /** One page of a session's messages by id, after (asc) or before (desc) the anchor; rows in that order. */
  messagePage(
    sessionId: string,
    order: 'asc' | 'desc',
    after: string | undefined,
    limit: number,
  ): Promise<MessageRow[]> {
    const direction = order === 'asc' ? 'ASC' : 'DESC';
    const params: unknown[] = [sessionId, limit];
    let where = 'session_id = $1';
    if (after !== undefined) {
      params.push(after);
      where += ` AND id ${order === 'asc' ? '>' : '<'} $3`;
    }
    return this.db.query(
      `SELECT ${MESSAGE_COLUMNS} FROM session_message WHERE ${where} ORDER BY id ${direction} LIMIT $2`,
      params,
    );
  }

  /**
   * Messages in id order after `after` and up to `through` (inclusive) when given, with `data` as text: up
   * to `limit` rows, and no more once `bytes` of stored data are in (at least one row). Only the rows that
   * come back have their data turned into text.
   */
  messageTextPage(
    sessionId: string,
    range: { after?: string; through?: string },
    limit: number,
    bytes: number,
  ): Promise<MessageTextRow[]> {
    const params: unknown[] = [sessionId, limit, bytes];
    let where = 'session_id = $1';
    if (range.after !== undefined) where += ` AND id > $${params.push(range.after)}`;
    if (range.through !== undefined) where += ` AND id <= $${params.push(range.through)}`;
    return this.db.query(
      `SELECT ${MESSAGE_TEXT_COLUMNS} FROM (
         SELECT *, sum(pg_column_size(data)) OVER (ORDER BY id) - pg_column_size(data) AS before
         FROM (SELECT ${MESSAGE_COLUMNS} FROM session_message WHERE ${where} ORDER BY id LIMIT $2) m
       ) w
       WHERE before < $3 ORDER BY id`,
      params,
    );
  }

  /**
   * Inserts messages with COPY in the transaction of `manager` (an import's batches): about half the database's
   * time of the same rows through `unnest` (bench/transfer).
   */
  async insertMessages(messages: NewMessage[], manager: EntityManager): Promise<void> {
    if (messages.length === 0) return;
    const client = (await (manager.queryRunner as PostgresQueryRunner).connect()) as PoolClient;
    const lines = messages.map((m) =>
      [
        m.sessionId,
        m.id,
        m.type,
        JSON.stringify(m.data),
        m.timeCreated,
        m.timeCompleted,
        m.tokens?.input,
        m.tokens?.output,
        m.tokens?.reasoning,
        m.tokens?.cacheRead,
        m.tokens?.cacheWrite,
        m.cost,
      ]
        .map(copyText)
        .join('\t'),
    );
    await new Promise<void>((resolve, reject) => {
      const copy = client.query(copyFrom(COPY_MESSAGES));
      copy.on('error', reject);
      copy.on('finish', resolve);
      copy.end(`${lines.join('\n')}\n`);
    });
  }

  async messageExists(
    sessionId: string,
    id: string,
    manager: EntityManager = this.db.manager,
  ): Promise<boolean> {
    const rows: unknown[] = await manager.query(
      'SELECT 1 FROM session_message WHERE session_id = $1 AND id = $2',
      [sessionId, id],
    );
    return rows.length > 0;
  }

  /** The last message id of a session, or undefined when it has none. */
  async lastMessageId(
    sessionId: string,
    manager: EntityManager = this.db.manager,
  ): Promise<string | undefined> {
    const rows: Array<{ id: string }> = await manager.query(
      'SELECT id FROM session_message WHERE session_id = $1 ORDER BY id DESC LIMIT 1',
      [sessionId],
    );
    return rows[0]?.id;
  }

  /** A session's messages in transcript order. */
  messages(sessionId: string, manager: EntityManager = this.db.manager): Promise<MessageRow[]> {
    return manager.query(`SELECT ${MESSAGE_COLUMNS} FROM session_message WHERE session_id = $1 ORDER BY id`, [
      sessionId,
    ]);
  }

  /** Copies the history of one session into another, strictly before `before` when given; keeps the ids. */
  async copyMessages(
    from: string,
    to: string,
    before: string | undefined,
    manager: EntityManager,
  ): Promise<void> {
    await manager.query(
      `INSERT INTO session_message (session_id, id, type, data, time_created, time_completed, tokens_input,
         tokens_output, tokens_reasoning, tokens_cache_read, tokens_cache_write, cost)
       SELECT $2, id, type, data, time_created, time_completed, tokens_input, tokens_output, tokens_reasoning,
         tokens_cache_read, tokens_cache_write, cost
       FROM session_message WHERE session_id = $1 ${before ? 'AND id < $3' : ''}`,
      before ? [from, to, before] : [from, to],
    );
  }
}
