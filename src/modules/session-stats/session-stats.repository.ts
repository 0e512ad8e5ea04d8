import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { StatsQuery } from './session-stats.types';

/** Per calendar day (in the zone) and model: what the day's assistant messages add up to. */
export interface DayModelRow {
  day: string;
  model: { id: string; providerID: string; variant?: string } | null;
  steps: string;
  tokens_input: string;
  tokens_output: string;
  tokens_reasoning: string;
  tokens_cache_read: string;
  tokens_cache_write: string;
  cost: string;
  tool_calls: string;
  tool_succeeded: string;
  tool_failed: string;
  streak: number;
}

export interface ToolRow {
  name: string | null;
  calls: string;
  succeeded: string;
  failed: string;
  duration_p50: number | null;
}

/**
 * The analytic read side of the session tables: every figure is aggregated in PostgreSQL, only grouped rows
 * (days × models, tools) come back. Messages in range: `time_created` in `[from, to)`.
 */
@Injectable()
export class SessionStatsRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** The IANA zone names PostgreSQL knows. */
  async timeZones(): Promise<string[]> {
    const rows: Array<{ name: string }> = await this.db.query('SELECT name FROM pg_timezone_names');
    return rows.map((row) => row.name);
  }

  /** The first user or assistant message, or undefined when there is none. */
  async earliest(project: string | undefined, to: number): Promise<number | undefined> {
    const rows: Array<{ first: string | null }> = await this.db.query(
      `SELECT min(m.time_created) AS first FROM session_message m
       ${project === undefined ? '' : 'JOIN session s ON s.id = m.session_id AND s.project_id = $2'}
       WHERE m.type IN ('user', 'assistant') AND m.time_created < $1`,
      project === undefined ? [to] : [to, project],
    );
    return rows[0]?.first === null || rows[0] === undefined ? undefined : Number(rows[0].first);
  }

  /**
   * Root and child sessions with a user or assistant message in range, and the prompts (user messages) of
   * the roots: per session, counted from the (session_id, type, time_created) index.
   */
  async sessions(query: StatsQuery): Promise<{ sessions: number; subagents: number; prompts: number }> {
    const inRange = 'm.session_id = s.id AND m.time_created >= $1 AND m.time_created < $2';
    const rows: Array<{ sessions: string; subagents: string; prompts: string }> = await this.aggregate(
      `SELECT count(*) FILTER (WHERE s.parent_id IS NULL) AS sessions,
              count(*) FILTER (WHERE s.parent_id IS NOT NULL) AS subagents,
              coalesce(sum(u.n) FILTER (WHERE s.parent_id IS NULL), 0) AS prompts
       FROM session s
       CROSS JOIN LATERAL (SELECT count(*) AS n FROM session_message m WHERE ${inRange} AND m.type = 'user') u
       WHERE ${query.project === undefined ? 'TRUE' : 's.project_id = $3'}
         AND (u.n > 0 OR EXISTS (SELECT 1 FROM session_message m WHERE ${inRange} AND m.type = 'assistant'))`,
      this.params(query, []),
    );
    return {
      sessions: Number(rows[0].sessions),
      subagents: Number(rows[0].subagents),
      prompts: Number(rows[0].prompts),
    };
  }

  /**
   * Steps, tokens, cost and tool-call counts per calendar day and model, with the longest run of
   * consecutive days (gaps and islands) on every row. Assistant messages are first summed per 15-minute
   * slot (every zone's offset and transition falls on one), so only the slots meet the time-zone rules.
   */
  byDayAndModel(query: StatsQuery): Promise<DayModelRow[]> {
    return this.aggregate(this.byDayAndModelSql(query), this.params(query, [query.timezone]));
  }

  private byDayAndModelSql(query: StatsQuery): string {
    const sums = [
      'tokens_input',
      'tokens_output',
      'tokens_reasoning',
      'tokens_cache_read',
      'tokens_cache_write',
      'cost',
      'tool_calls',
      'tool_succeeded',
      'tool_failed',
    ];
    return `WITH slots AS (
         SELECT m.time_created / 900000 AS slot, m.model, count(*) AS steps,
                ${sums.map((c) => `coalesce(sum(m.${c}), 0) AS ${c}`).join(', ')}
         FROM session_message m
         WHERE m.type = 'assistant' AND m.time_created >= $1 AND m.time_created < $2
           ${query.project === undefined ? '' : 'AND m.session_id IN (SELECT id FROM session WHERE project_id = $4)'}
         GROUP BY 1, 2
       ),
       g AS (
         SELECT (to_timestamp(slot * 900) AT TIME ZONE $3)::date AS day, model, sum(steps) AS steps,
                ${sums.map((c) => `sum(${c}) AS ${c}`).join(', ')}
         FROM slots GROUP BY 1, 2
       ),
       islands AS (
         SELECT count(*) AS length
         FROM (SELECT day - (row_number() OVER (ORDER BY day))::int AS island FROM (SELECT DISTINCT day FROM g) d) x
         GROUP BY island
       )
       SELECT to_char(g.day, 'YYYY-MM-DD') AS day, g.model, g.steps, ${sums.map((c) => `g.${c}`).join(', ')},
              (SELECT coalesce(max(length), 0) FROM islands)::int AS streak
       FROM g ORDER BY g.day`;
  }

  /**
   * Tool calls of assistant messages in range by name: `completed` succeeded, `error` failed, anything else
   * is unfinished, with the median of `completed − (ran ?? created)`.
   */
  toolsByName(query: StatsQuery): Promise<ToolRow[]> {
    const duration = `(c->'time'->>'completed')::bigint - coalesce((c->'time'->>'ran')::bigint, (c->'time'->>'created')::bigint)`;
    return this.aggregate(
      `SELECT c->>'name' AS name,
              count(*) AS calls,
              count(*) FILTER (WHERE c->'state'->>'status' = 'completed') AS succeeded,
              count(*) FILTER (WHERE c->'state'->>'status' = 'error') AS failed,
              percentile_cont(0.5) WITHIN GROUP (ORDER BY ${duration}) AS duration_p50
       FROM session_message m
       CROSS JOIN LATERAL jsonb_array_elements(
         CASE WHEN jsonb_typeof(m.data->'content') = 'array' THEN m.data->'content' ELSE '[]' END) c
       WHERE m.type = 'assistant' AND m.time_created >= $1 AND m.time_created < $2 AND c->>'type' = 'tool'
         AND m.tool_calls > 0
         ${query.project === undefined ? '' : 'AND m.session_id IN (SELECT id FROM session WHERE project_id = $3)'}
       GROUP BY 1 ORDER BY calls DESC, name`,
      this.params(query, []),
    );
  }

  /**
   * Runs one aggregate without JIT (compiling costs more than it saves at this size: 1.2 s → 0.5 s for a
   * year) and with room for the slot hash (slots × models groups spill to disk under the default 4 MB).
   */
  private aggregate<T>(sql: string, params: unknown[]): Promise<T> {
    return this.db.transaction(async (manager) => {
      await manager.query(`SET LOCAL jit = off`);
      await manager.query(`SET LOCAL work_mem = '32MB'`);
      return manager.query(sql, params) as Promise<T>;
    });
  }

  private params(query: StatsQuery, extra: unknown[]): unknown[] {
    return [query.from, query.to, ...extra, ...(query.project === undefined ? [] : [query.project])];
  }
}
