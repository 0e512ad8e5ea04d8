import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { poolQuery } from '@/database/pool-query';
import { Transaction } from '@/database/transaction';
import type { UsageGroup } from './dto/usage.dto';
import { UsageInput, usageValues } from './usage-input';

/** A member's (or key's) spend in a batch: of its newest month, and the holds it gives back (micro-cents as text). */
export interface MemberSpendPart {
  workspaceId: string;
  memberId: string;
  /** `YYYY-MM-DD`, the first day of the month. */
  month: string;
  spent: string;
  released: string;
  /** What the workspace's row held for the member's calls (this process's `budget_hold`). */
  workspaceReleased: string;
}

/** A workspace's spend in a batch, as MemberSpendPart. */
export interface WorkspaceSpendPart {
  workspaceId: string;
  month: string;
  spent: string;
  released: string;
}

/** A batch of settlements, as one statement writes it. */
export interface UsageBatch {
  /** The usage rows as one JSON text (`json_to_recordset`; SettlementSums.statement). */
  rows: string;
  members: MemberSpendPart[];
  workspaces: WorkspaceSpendPart[];
  /** The process whose holds are released and whose journal mark is set. */
  nodeId: string;
  /** The journal's sequence number of the batch's last settlement. */
  writtenSeq: number;
}

/** A usage report's row: what `key` (a member, key, model or day) spent, as the report's statement reads it. */
export interface UsageSum {
  key: string;
  spent: string;
  requests: number;
  input: string;
  output: string;
}

const BATCH = `WITH batch AS (
         SELECT * FROM unnest($2::varchar[], $3::varchar[], $4::date[], $5::bigint[], $6::bigint[],
                              $11::bigint[])
                AS b(workspace_id, member_id, month, spent, released, workspace_released)
       ), workspaces AS (
         SELECT * FROM unnest($7::varchar[], $8::date[], $9::bigint[], $10::bigint[])
                AS w(workspace_id, month, spent, released)
       ), workspace_spent AS (
         INSERT INTO workspace_spend AS s (workspace_id, month, spent_micro_cents, held_micro_cents)
         SELECT workspace_id, month, spent, 0 FROM workspaces
         ON CONFLICT (workspace_id) DO UPDATE SET
           spent_micro_cents = CASE
             WHEN s.month = EXCLUDED.month THEN s.spent_micro_cents + EXCLUDED.spent_micro_cents
             WHEN s.month < EXCLUDED.month THEN EXCLUDED.spent_micro_cents
             ELSE s.spent_micro_cents END,
           held_micro_cents = GREATEST(0, s.held_micro_cents - (
             SELECT w.released FROM workspaces w WHERE w.workspace_id = EXCLUDED.workspace_id)),
           month = GREATEST(s.month, EXCLUDED.month)
       ), node_holds AS (
         UPDATE budget_hold h
            SET member_held_micro_cents = GREATEST(0, h.member_held_micro_cents - b.released),
                workspace_held_micro_cents = GREATEST(0, h.workspace_held_micro_cents - b.workspace_released)
           FROM batch b
          WHERE h.node_id = $12 AND h.workspace_id = b.workspace_id AND h.member_id = b.member_id
       ), journaled AS (
         INSERT INTO usage_journal AS j (node_id, written_seq, updated_at) VALUES ($12, $13, now())
         ON CONFLICT (node_id) DO UPDATE SET written_seq = GREATEST(j.written_seq, EXCLUDED.written_seq),
                                             updated_at = now()
       ), recorded AS (
         INSERT INTO usage (workspace_id, member_id, key_id, model, requests, input_tokens, output_tokens,
                            cache_read_tokens, cache_write_tokens, cost_micro_cents, created_at)
         SELECT w, m, k, model, n, i, o, cr, cw, c, at
           FROM json_to_recordset($1::json) AS r(w varchar, m varchar, k varchar, model varchar, n int, i int,
                                                 o int, cr int, cw int, c bigint, at timestamptz)
       )
       INSERT INTO member_spend AS s (workspace_id, member_id, month, spent_micro_cents, held_micro_cents)
       SELECT workspace_id, member_id, month, spent, 0 FROM batch
       ON CONFLICT (workspace_id, member_id) DO UPDATE SET
         spent_micro_cents = CASE
           WHEN s.month = EXCLUDED.month THEN s.spent_micro_cents + EXCLUDED.spent_micro_cents
           WHEN s.month < EXCLUDED.month THEN EXCLUDED.spent_micro_cents
           ELSE s.spent_micro_cents END,
         held_micro_cents = GREATEST(0, s.held_micro_cents - (
           SELECT b.released FROM batch b
            WHERE b.workspace_id = EXCLUDED.workspace_id AND b.member_id = EXCLUDED.member_id)),
         month = GREATEST(s.month, EXCLUDED.month)`;

/**
 * The gateway's usage (`usage`) and what it adds to `member_spend` and `workspace_spend`: one request at a time or a
 * batch of settlements in one statement (which also releases the batch's holds and marks the process's journal as
 * written, `usage_journal`), and the reports summed from it.
 */
@Injectable()
export class UsageRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /**
   * Adds a usage row at `at` and the member's spend for its month in one statement, releasing `releasedHold`;
   * answers the member's spend (micro-cents as text).
   */
  async record(usage: UsageInput, at: Date, releasedHold: bigint): Promise<string> {
    const rows = (await this.db.query(
      `WITH recorded AS (
         INSERT INTO usage (workspace_id, member_id, key_id, model, input_tokens, output_tokens,
                            cache_read_tokens, cache_write_tokens, cost_micro_cents, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
         RETURNING workspace_id, member_id, cost_micro_cents,
                   date_trunc('month', created_at AT TIME ZONE 'UTC')::date AS month
       )
       INSERT INTO member_spend AS s (workspace_id, member_id, month, spent_micro_cents)
       SELECT workspace_id, member_id, month, cost_micro_cents FROM recorded
       ON CONFLICT (workspace_id, member_id) DO UPDATE SET
         spent_micro_cents = CASE
           WHEN s.month = EXCLUDED.month THEN s.spent_micro_cents + EXCLUDED.spent_micro_cents
           WHEN s.month < EXCLUDED.month THEN EXCLUDED.spent_micro_cents
           ELSE s.spent_micro_cents END,
         held_micro_cents = GREATEST(0, s.held_micro_cents - $11::bigint),
         month = GREATEST(s.month, EXCLUDED.month)
       RETURNING spent_micro_cents`,
      [...usageValues(usage), at, releasedHold.toString()],
    )) as Array<{ spent_micro_cents: string }>;
    return rows[0].spent_micro_cents;
  }

  /**
   * Writes a batch in one statement: its usage rows, each member's and workspace's spend and released holds, the
   * process's holds (`budget_hold`) and journal mark. On the pool's prepared statement, or in `tx` (recovery).
   */
  async writeBatch(batch: UsageBatch, tx?: Transaction): Promise<void> {
    const { members, workspaces } = batch;
    const params = [
      batch.rows,
      members.map((entry) => entry.workspaceId),
      members.map((entry) => entry.memberId),
      members.map((entry) => entry.month),
      members.map((entry) => entry.spent),
      members.map((entry) => entry.released),
      workspaces.map((entry) => entry.workspaceId),
      workspaces.map((entry) => entry.month),
      workspaces.map((entry) => entry.spent),
      workspaces.map((entry) => entry.released),
      members.map((entry) => entry.workspaceReleased),
      batch.nodeId,
      batch.writtenSeq,
    ];
    if (tx) await tx.query(BATCH, params);
    else await poolQuery(this.db, BATCH, params);
  }

  /** Locks a process's journal until `tx` ends (an advisory lock on its id), so it is written once. */
  async lockJournal(tx: Transaction, nodeId: string): Promise<void> {
    await tx.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`usage-journal:${nodeId}`]);
  }

  /** The journal's last sequence number the process's batches wrote (0 without one). */
  async writtenSeq(tx: Transaction, nodeId: string): Promise<number> {
    const sql = 'SELECT written_seq FROM usage_journal WHERE node_id = $1';
    const marks = (await tx.query(sql, [nodeId])) as Array<{ written_seq: string }>;
    return Number(marks[0]?.written_seq ?? 0);
  }

  /** Removes the process's journal mark: on the pool, or in `tx`. */
  async forgetJournal(nodeId: string, tx?: Transaction): Promise<void> {
    const sql = 'DELETE FROM usage_journal WHERE node_id = $1';
    if (tx) await tx.query(sql, [nodeId]);
    else await poolQuery(this.db, sql, [nodeId]);
  }

  /** Usage rows of [from, to) summed per member, key, model or UTC day, largest spend first (days in order). */
  report(workspaceId: string, groupBy: UsageGroup, from: Date, to: Date): Promise<UsageSum[]> {
    const column = {
      member: 'member_id',
      key: "coalesce(key_id, 'session')",
      model: 'model',
      day: "to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD')",
    }[groupBy];
    return this.db.query(
      `SELECT ${column} AS key, sum(cost_micro_cents)::text AS spent, sum(requests)::int AS requests,
              sum(input_tokens)::bigint::text AS input, sum(output_tokens)::bigint::text AS output
         FROM usage WHERE workspace_id = $1 AND created_at >= $2 AND created_at < $3
        GROUP BY 1 ORDER BY ${groupBy === 'day' ? '1' : 'sum(cost_micro_cents) DESC, 1'}`,
      [workspaceId, from, to],
    ) as Promise<UsageSum[]>;
  }
}
