import { Injectable } from '@nestjs/common';
import { InjectDataSource, InjectRepository } from '@nestjs/typeorm';
import { DataSource, Repository } from 'typeorm';
import { from as copyFrom } from 'pg-copy-streams';
import { pgPool, poolQuery } from '@/database/pool-query';
import { REQUEST_LOG_COLUMNS } from './request-log-row';
import { RequestLogEntity } from './request-log.entity';

const COLUMNS = REQUEST_LOG_COLUMNS.map(([, column]) => column).join(', ');

/** The lines of `encodeRow` (PostgreSQL's text format) copied in. */
const COPY_ROWS = `COPY request_log (${COLUMNS}) FROM STDIN`;

/** The rows of one JSON text (`json_to_recordset`) inserted, those whose id is there already skipped. */
const INSERT_ROWS = `INSERT INTO request_log (${COLUMNS})
        SELECT ${REQUEST_LOG_COLUMNS.map(([field]) => `"${field}"`).join(', ')}
          FROM json_to_recordset($1::json)
               AS r(${REQUEST_LOG_COLUMNS.map(([field, , type]) => `"${field}" ${type}`).join(', ')})
        ON CONFLICT (id) DO UPDATE SET ${REQUEST_LOG_COLUMNS.filter(([field]) => field !== 'id')
          .map(([, column]) => `${column} = EXCLUDED.${column}`)
          .join(', ')}
        WHERE request_log.outcome = 'cut'`;

/** A stream's fields, its column and the type `json_to_recordset` reads it as (StreamRow). */
const STREAM_COLUMNS: ReadonlyArray<readonly [string, string, string]> = [
  ['id', 'id', 'varchar'],
  ['nodeId', 'node_id', 'varchar'],
  ['workspaceId', 'workspace_id', 'varchar'],
  ['memberId', 'member_id', 'varchar'],
  ['keyId', 'key_id', 'varchar'],
  ['requestId', 'request_id', 'varchar'],
  ['route', 'route', 'varchar'],
  ['model', 'model', 'varchar'],
  ['servedBy', 'served_by', 'varchar'],
  ['status', 'status', 'int'],
  ['inputTokens', 'input_tokens', 'int'],
  ['outputTokens', 'output_tokens', 'int'],
  ['costMicroCents', 'cost_micro_cents', 'bigint'],
  ['ttfbMs', 'ttfb_ms', 'int'],
  ['createdAt', 'created_at', 'timestamptz'],
  ['updatedAt', 'updated_at', 'timestamptz'],
];

/** Streams in flight written or brought up to date (what they have used and billed so far). */
const UPSERT_STREAMS = `INSERT INTO request_log_stream (${STREAM_COLUMNS.map(([, column]) => column).join(', ')})
        SELECT ${STREAM_COLUMNS.map(([field]) => `"${field}"`).join(', ')}
          FROM json_to_recordset($1::json)
               AS r(${STREAM_COLUMNS.map(([field, , type]) => `"${field}" ${type}`).join(', ')})
        ON CONFLICT (id) DO UPDATE SET input_tokens = EXCLUDED.input_tokens, output_tokens = EXCLUDED.output_tokens,
          cost_micro_cents = EXCLUDED.cost_micro_cents, updated_at = EXCLUDED.updated_at`;

/** What a page of the log may be narrowed to. */
export interface RequestLogFilter {
  memberId?: string;
  keyId?: string;
  model?: string;
  status?: number;
  from?: Date;
  to?: Date;
}

/** Which page of the log: `limit` rows matching `filter`, older than `cursor` (the previous page's last id). */
export interface RequestLogPage {
  filter: RequestLogFilter;
  limit: number;
  cursor?: string;
}

/**
 * The gateway's per-request log (`request_log`): batches written with COPY (and what a dead process's journal held,
 * or a batch that may have been written, with one INSERT that skips the rows already there), pages, and pruning.
 */
@Injectable()
export class RequestLogRepository {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    @InjectRepository(RequestLogEntity) private readonly entries: Repository<RequestLogEntity>,
  ) {}

  /**
   * Inserts a batch of new rows with COPY, each a line of `encodeRow` (one statement: all or none). A batch holding
   * a row already there fails whole (a unique violation, PostgreSQL's code 23505): write it with `insertMissing`.
   */
  async copyBatch(lines: string[]): Promise<void> {
    const client = await pgPool(this.db).connect();
    try {
      // Ended at once with the whole text: a stream pipeline would cost more than the batch (bench/gateway).
      await new Promise<void>((resolve, reject) => {
        const copy = client.query(copyFrom(COPY_ROWS));
        copy.on('error', reject);
        copy.on('finish', resolve); // once PostgreSQL has taken the rows
        copy.end(`${lines.join('\n')}\n`);
      });
    } finally {
      client.release();
    }
  }

  /**
   * Inserts rows given as one JSON text (`json_to_recordset`), each a RequestLogRow; a row whose id is there
   * already is skipped, so a batch that may have been written (a retry, a dead process's journal) is written again
   * safely, except a stream's row logged `cut` by a live process, which the stream's own row replaces. Answers how
   * many rows were written.
   */
  async insertMissing(rows: string): Promise<number> {
    const written = await poolQuery<{ n: number }>(
      this.db,
      `WITH written AS (${INSERT_ROWS} RETURNING 1) SELECT count(*)::int AS n FROM written`,
      [rows],
    );
    return written[0].n;
  }

  /** Writes streams in flight (StreamRow, as one JSON text), or what they have billed since. */
  async upsertStreams(rows: string): Promise<void> {
    await poolQuery(this.db, UPSERT_STREAMS, [rows]);
  }

  /** Deletes the in-flight rows of streams whose own row is written. */
  async deleteStreams(ids: string[]): Promise<void> {
    await poolQuery(this.db, 'DELETE FROM request_log_stream WHERE id = ANY($1::varchar[])', [ids]);
  }

  /** Newest first, `limit` rows older than `cursor` (the id of the previous page's last row). */
  page(workspaceId: string, { filter, limit, cursor }: RequestLogPage): Promise<RequestLogEntity[]> {
    const query = this.entries
      .createQueryBuilder('r')
      .where('r.workspace_id = :workspaceId', { workspaceId });
    if (cursor) query.andWhere('r.id < :cursor', { cursor });
    if (filter.memberId) query.andWhere('r.member_id = :memberId', { memberId: filter.memberId });
    if (filter.keyId) query.andWhere('r.key_id = :keyId', { keyId: filter.keyId });
    if (filter.model) query.andWhere('(r.model = :model OR r.served_by = :model)', { model: filter.model });
    if (filter.status !== undefined) query.andWhere('r.status = :status', { status: filter.status });
    if (filter.from) query.andWhere('r.created_at >= :from', { from: filter.from });
    if (filter.to) query.andWhere('r.created_at < :to', { to: filter.to });
    return query.orderBy('r.id', 'DESC').limit(limit).getMany();
  }

  /**
   * The names a person reads for the ids of a page: members (people and service accounts), keys (a service
   * account's as `account / key`), and connections with their models' names. Read-only reads of the other modules'
   * tables (ARCHITECTURE.md: the accepted exception); people by id (one who left keeps a name on old rows), the
   * rest held to the workspace.
   */
  names(workspaceId: string, ids: { members: string[]; keys: string[]; connections: string[] }) {
    return poolQuery<{ kind: 'member' | 'key' | 'connection'; id: string; name: string; models: unknown }>(
      this.db,
      `SELECT 'member' AS kind, u.id, u.name, NULL::jsonb AS models FROM users u WHERE u.id = ANY($2::varchar[])
       UNION ALL
       SELECT 'member', s.id, s.name, NULL FROM service_account s WHERE s.workspace_id = $1 AND s.id = ANY($2::varchar[])
       UNION ALL
       SELECT 'key', k.id, CASE WHEN s.id IS NULL THEN k.name ELSE s.name || ' / ' || k.name END, NULL
         FROM api_key k LEFT JOIN service_account s ON s.id = k.service_account_id
        WHERE k.workspace_id = $1 AND k.id = ANY($3::varchar[])
       UNION ALL
       SELECT 'connection', c.id, c.name, c.models FROM connection c
        WHERE c.workspace_id = $1 AND c.id = ANY($4::varchar[])`,
      [workspaceId, ids.members, ids.keys, ids.connections],
    );
  }

  /** Removes the rows created before `cutoff`; answers how many went. */
  async pruneBefore(cutoff: Date): Promise<number> {
    const rows = await poolQuery<{ n: string }>(
      this.db,
      'WITH gone AS (DELETE FROM request_log WHERE created_at < $1 RETURNING 1) SELECT count(*) AS n FROM gone',
      [cutoff],
    );
    return Number(rows[0].n);
  }
}
