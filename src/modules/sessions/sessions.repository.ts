import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { poolQuery } from '@/database/pool-query';
import { CursorAnchor, SessionListQuery } from './sessions-cursor';
import { ModelRef, Ruleset, SessionFork, SessionOutcome, SessionRevert } from './session.types';

/** A `session` row as PostgreSQL returns it (bigints arrive as strings). */
export interface SessionRow {
  id: string;
  parent_id: string | null;
  fork: SessionFork | null;
  project_id: string;
  directory: string;
  subpath: string;
  agent: string | null;
  model: ModelRef | null;
  title: string;
  metadata: Record<string, unknown> | null;
  permissions: Ruleset | null;
  cost: string;
  tokens_input: string;
  tokens_output: string;
  tokens_reasoning: string;
  tokens_cache_read: string;
  tokens_cache_write: string;
  outcome: SessionOutcome | null;
  time_created: string;
  time_updated: string;
  time_idle: string | null;
  time_viewed: string | null;
  time_archived: string | null;
  /** The row as `Session.Info` JSON, rendered by the database (see SessionEntity.info). */
  info: string;
}

/** What a list page needs of a session: its keyset position and its rendered `Session.Info`. */
export interface SessionPageRow {
  id: string;
  time_updated: string;
  info: string;
}

export interface NewSession {
  id: string;
  parentId: string | null;
  fork: SessionFork | null;
  projectId: string;
  directory: string;
  subpath: string;
  agent: string | null;
  model: ModelRef | null;
  title: string;
  metadata: Record<string, unknown> | null;
  permissions: Ruleset | null;
  time: number;
}

/** Columns a PATCH or a switch may set; `undefined` leaves a column alone. */
export interface SessionChanges {
  title?: string;
  metadata?: Record<string, unknown> | null;
  permissions?: Ruleset | null;
  agent?: string;
  model?: ModelRef;
  directory?: string;
  projectId?: string;
  subpath?: string;
  outcome?: SessionOutcome;
  timeIdle?: number;
  revert?: SessionRevert | null;
}

/** A session brought in by an import: usage, outcome and times come from the export. */
export interface ImportedSession extends Omit<NewSession, 'time'> {
  cost: number;
  tokens: { input: number; output: number; reasoning: number; cacheRead: number; cacheWrite: number };
  outcome: SessionOutcome | null;
  time: {
    created: number;
    updated: number;
    idle: number | null;
    viewed: number | null;
    archived: number | null;
  };
}

const CHANGE_COLUMNS: Record<keyof SessionChanges, string> = {
  title: 'title',
  metadata: 'metadata',
  permissions: 'permissions',
  agent: 'agent',
  model: 'model',
  directory: 'directory',
  projectId: 'project_id',
  subpath: 'subpath',
  outcome: 'outcome',
  timeIdle: 'time_idle',
  revert: 'revert',
};
/** The columns of a `SessionRow`, named: the prepared reads keep their shape when a column is added. */
const SESSION_COLUMNS = `id, parent_id, fork, project_id, directory, subpath, agent, model, title, metadata, permissions,
  cost, tokens_input, tokens_output, tokens_reasoning, tokens_cache_read, tokens_cache_write, outcome, time_created,
  time_updated, time_idle, time_viewed, time_archived, info`;

const JSON_COLUMNS = new Set(['metadata', 'permissions', 'model', 'revert']);

/**
 * A page size written into the SQL. A `LIMIT $n` parameter makes PostgreSQL's generic plan look ten times
 * dearer than a planned one (it assumes 10% of the rows), so a prepared page query would be planned again at
 * every execution; with the number in the text, the statement is planned once per connection.
 */
function literalLimit(limit: number): number {
  if (!Number.isSafeInteger(limit) || limit < 1) throw new RangeError(`bad page size: ${limit}`);
  return limit;
}

/** `%`, `_` and `\` match themselves in a search. */
function likePattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** The SQL of the session domain: keyset pages, recursive delete, copies of history for forks. */
@Injectable()
export class SessionsRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  transaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.db.transaction(work);
  }

  async find(id: string, manager?: EntityManager): Promise<SessionRow | undefined> {
    const sql = `SELECT ${SESSION_COLUMNS} FROM session WHERE id = $1`;
    const rows: SessionRow[] = manager ? await manager.query(sql, [id]) : await poolQuery(this.db, sql, [id]);
    return rows[0];
  }

  /** The session as `Session.Info` JSON text, for a reply that sends it as it is. */
  async findInfo(id: string): Promise<string | undefined> {
    const rows = await poolQuery<{ info: string }>(this.db, 'SELECT info FROM session WHERE id = $1', [id]);
    return rows[0]?.info;
  }

  /** Locks the row until the transaction ends, so concurrent switches apply one after the other. */
  async findForUpdate(id: string, manager: EntityManager): Promise<SessionRow | undefined> {
    const rows: SessionRow[] = await manager.query('SELECT * FROM session WHERE id = $1 FOR UPDATE', [id]);
    return rows[0];
  }

  /** Inserts a session; `false` when the id is taken. */
  async insert(
    session: NewSession,
    manager: EntityManager = this.db.manager,
  ): Promise<SessionRow | undefined> {
    const rows: SessionRow[] = await manager.query(
      `INSERT INTO session (id, parent_id, fork, project_id, directory, subpath, agent, model, title, metadata,
         permissions, time_created, time_updated)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $12)
       ON CONFLICT (id) DO NOTHING
       RETURNING *`,
      [
        session.id,
        session.parentId,
        session.fork === null ? null : JSON.stringify(session.fork),
        session.projectId,
        session.directory,
        session.subpath,
        session.agent,
        session.model === null ? null : JSON.stringify(session.model),
        session.title,
        session.metadata === null ? null : JSON.stringify(session.metadata),
        session.permissions === null ? null : JSON.stringify(session.permissions),
        session.time,
      ],
    );
    return rows[0];
  }

  /** Inserts an imported session with its usage and times; undefined when the id is taken. */
  async insertImported(session: ImportedSession, manager: EntityManager): Promise<SessionRow | undefined> {
    const json = (value: unknown) => (value === null ? null : JSON.stringify(value));
    const rows: SessionRow[] = await manager.query(
      `INSERT INTO session (id, parent_id, fork, project_id, directory, subpath, agent, model, title, metadata,
         permissions, cost, tokens_input, tokens_output, tokens_reasoning, tokens_cache_read, tokens_cache_write,
         outcome, time_created, time_updated, time_idle, time_viewed, time_archived)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21,
         $22, $23)
       ON CONFLICT (id) DO NOTHING
       RETURNING *`,
      [
        session.id,
        session.parentId,
        json(session.fork),
        session.projectId,
        session.directory,
        session.subpath,
        session.agent,
        json(session.model),
        session.title,
        json(session.metadata),
        json(session.permissions),
        session.cost,
        session.tokens.input,
        session.tokens.output,
        session.tokens.reasoning,
        session.tokens.cacheRead,
        session.tokens.cacheWrite,
        session.outcome,
        session.time.created,
        session.time.updated,
        session.time.idle,
        session.time.viewed,
        session.time.archived,
      ],
    );
    return rows[0];
  }

  /** Applies the changes and bumps `time_updated`; the updated row, or undefined when the id is unknown. */
  async update(
    id: string,
    changes: SessionChanges,
    time: number,
    manager: EntityManager = this.db.manager,
  ): Promise<SessionRow | undefined> {
    const sets = ['time_updated = $2'];
    const params: unknown[] = [id, time];
    for (const [key, column] of Object.entries(CHANGE_COLUMNS) as Array<[keyof SessionChanges, string]>) {
      const value = changes[key];
      if (value === undefined) continue;
      params.push(value !== null && JSON_COLUMNS.has(column) ? JSON.stringify(value) : value);
      sets.push(`${column} = $${params.length}`);
    }
    const rows: SessionRow[] = await manager.query(
      `WITH updated AS (UPDATE session SET ${sets.join(', ')} WHERE id = $1 RETURNING *) SELECT * FROM updated`,
      params,
    );
    return rows[0];
  }

  /** Deletes a session and all its descendants in one statement; messages go by cascade. */
  async deleteTree(id: string): Promise<SessionRow[]> {
    const rows: SessionRow[] = await this.db.query(
      `WITH RECURSIVE tree AS (
         SELECT id FROM session WHERE id = $1
         UNION ALL
         SELECT s.id FROM session s JOIN tree t ON s.parent_id = t.id
       ), deleted AS (DELETE FROM session WHERE id IN (SELECT id FROM tree) RETURNING *)
       SELECT * FROM deleted`,
      [id],
    );
    return rows;
  }

  /**
   * One page of the ordered list. The scan direction follows the order and the anchor's direction;
   * rows come back in the requested order.
   */
  async page(
    query: SessionListQuery,
    anchor: CursorAnchor | undefined,
    limit: number,
  ): Promise<SessionPageRow[]> {
    const where: string[] = [];
    const params: unknown[] = [];
    const bind = (value: unknown) => {
      params.push(value);
      return `$${params.length}`;
    };
    if (query.parentID === null) where.push('parent_id IS NULL');
    else if (query.parentID !== undefined) where.push(`parent_id = ${bind(query.parentID)}`);
    if (query.directory !== undefined) where.push(`directory = ${bind(query.directory)}`);
    if (query.project !== undefined) where.push(`project_id = ${bind(query.project)}`);
    if (query.subpath !== undefined) where.push(`subpath = ${bind(query.subpath)}`);
    if (query.search !== undefined) where.push(`title ILIKE ${bind(likePattern(query.search))}`);
    const backwards = anchor?.direction === 'previous';
    const descending = (query.order === 'desc') !== backwards;
    if (anchor) {
      where.push(
        `(time_updated, id) ${descending ? '<' : '>'} (${bind(anchor.time)}::bigint, ${bind(anchor.id)}::varchar)`,
      );
    }
    const direction = descending ? 'DESC' : 'ASC';
    const rows = await poolQuery<SessionPageRow>(
      this.db,
      `SELECT id, time_updated, info FROM session ${where.length ? `WHERE ${where.join(' AND ')}` : ''}
       ORDER BY time_updated ${direction}, id ${direction} LIMIT ${literalLimit(limit)}`,
      params,
    );
    return backwards ? rows.reverse() : rows;
  }
}
