import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { StatsQuery } from './session-stats.types';

/** Per calendar day (in the zone) and model: what the day's user and assistant messages add up to. */
export interface DayModelRow {
  day: string;
  model: { id: string; providerID: string; variant?: string } | null;
  prompts: string;
  steps: string;
  tokens_input: string;
  tokens_output: string;
  tokens_reasoning: string;
  tokens_cache_read: string;
  tokens_cache_write: string;
  cost: string;
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

  /** Root and child sessions with a user or assistant message in range. */
  async sessions(query: StatsQuery): Promise<{ sessions: number; subagents: number }> {
    const rows: Array<{ sessions: string; subagents: string }> = await this.db.query(
      `SELECT count(*) FILTER (WHERE s.parent_id IS NULL) AS sessions,
              count(*) FILTER (WHERE s.parent_id IS NOT NULL) AS subagents
       FROM session s
       WHERE ${query.project === undefined ? 'TRUE' : 's.project_id = $3'}
         AND EXISTS (SELECT 1 FROM session_message m
                     WHERE m.session_id = s.id AND m.time_created >= $1 AND m.time_created < $2
                       AND m.type IN ('user', 'assistant'))`,
      this.params(query, []),
    );
    return { sessions: Number(rows[0].sessions), subagents: Number(rows[0].subagents) };
  }

  /**
   * Prompts, steps, tokens and cost per day and model, with the longest run of consecutive days
   * (gaps and islands over the grouped days) on every row.
   */
  byDayAndModel(query: StatsQuery): Promise<DayModelRow[]> {
    return this.db.query(
      `WITH g AS (
         SELECT (to_timestamp(m.time_created / 1000.0) AT TIME ZONE $3)::date AS day,
                CASE WHEN m.type = 'assistant' THEN m.data->'model' END AS model,
                count(*) FILTER (WHERE m.type = 'user' AND s.parent_id IS NULL) AS prompts,
                count(*) FILTER (WHERE m.type = 'assistant') AS steps,
                coalesce(sum(m.tokens_input) FILTER (WHERE m.type = 'assistant'), 0) AS tokens_input,
                coalesce(sum(m.tokens_output) FILTER (WHERE m.type = 'assistant'), 0) AS tokens_output,
                coalesce(sum(m.tokens_reasoning) FILTER (WHERE m.type = 'assistant'), 0) AS tokens_reasoning,
                coalesce(sum(m.tokens_cache_read) FILTER (WHERE m.type = 'assistant'), 0) AS tokens_cache_read,
                coalesce(sum(m.tokens_cache_write) FILTER (WHERE m.type = 'assistant'), 0) AS tokens_cache_write,
                coalesce(sum(m.cost) FILTER (WHERE m.type = 'assistant'), 0) AS cost
         FROM session_message m JOIN session s ON s.id = m.session_id
         WHERE m.type IN ('user', 'assistant') AND m.time_created >= $1 AND m.time_created < $2
           ${query.project === undefined ? '' : 'AND s.project_id = $4'}
         GROUP BY 1, 2
       ),
       islands AS (
         SELECT count(*) AS length
         FROM (SELECT day - (row_number() OVER (ORDER BY day))::int AS island FROM (SELECT DISTINCT day FROM g) d) x
         GROUP BY island
       )
       SELECT to_char(g.day, 'YYYY-MM-DD') AS day, g.model, g.prompts, g.steps, g.tokens_input, g.tokens_output,
              g.tokens_reasoning, g.tokens_cache_read, g.tokens_cache_write, g.cost,
              (SELECT coalesce(max(length), 0) FROM islands)::int AS streak
       FROM g ORDER BY g.day`,
      this.params(query, [query.timezone]),
    );
  }

  /**
   * Tool calls of assistant messages in range: `completed` succeeded, `error` failed, anything else is
   * unfinished. By name (with the median of `completed − (ran ?? created)`) or, without names, the totals.
   */
  tools(query: StatsQuery, byName: boolean): Promise<ToolRow[]> {
    const duration = `(c->'time'->>'completed')::bigint - coalesce((c->'time'->>'ran')::bigint, (c->'time'->>'created')::bigint)`;
    return this.db.query(
      `SELECT ${byName ? "c->>'name'" : 'NULL'} AS name,
              count(*) AS calls,
              count(*) FILTER (WHERE c->'state'->>'status' = 'completed') AS succeeded,
              count(*) FILTER (WHERE c->'state'->>'status' = 'error') AS failed,
              ${byName ? `percentile_cont(0.5) WITHIN GROUP (ORDER BY ${duration})` : 'NULL'} AS duration_p50
       FROM session_message m
       JOIN session s ON s.id = m.session_id
       CROSS JOIN LATERAL jsonb_array_elements(
         CASE WHEN jsonb_typeof(m.data->'content') = 'array' THEN m.data->'content' ELSE '[]' END) c
       WHERE m.type = 'assistant' AND m.time_created >= $1 AND m.time_created < $2 AND c->>'type' = 'tool'
         ${query.project === undefined ? '' : 'AND s.project_id = $3'}
       ${byName ? 'GROUP BY 1 ORDER BY calls DESC, name' : ''}`,
      this.params(query, []),
    );
  }

  private params(query: StatsQuery, extra: unknown[]): unknown[] {
    return [query.from, query.to, ...extra, ...(query.project === undefined ? [] : [query.project])];
  }
}
