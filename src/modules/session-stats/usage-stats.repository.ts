import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { ModelRef } from '../sessions/session.types';

/** Usage over `[from, to)` (epoch ms), by calendar day in `timezone` (IANA), of one project or all. */
export interface UsageRange {
  from: number;
  to: number;
  timezone: string;
  project?: string;
}

/** What one calendar day's messages of one model add up to (counts arrive as strings). */
export interface UsageDayRow {
  day: string;
  /** null on the row of the day's user messages. */
  model: ModelRef | null;
  /** User messages of root sessions. */
  prompts: string;
  steps: string;
  tokens_input: string;
  tokens_output: string;
  tokens_reasoning: string;
  tokens_cache_read: string;
  tokens_cache_write: string;
  /** Micro-cents. */
  cost: string;
  tool_calls: string;
  tool_succeeded: string;
  tool_failed: string;
  /** The longest run of consecutive days with steps, on every row. */
  streak: number;
}

export interface ToolUsageRow {
  name: string;
  calls: string;
  succeeded: string;
  failed: string;
  duration_p50: number | null;
}

/** `session_usage` slots are this long: every local midnight of every current time zone is a boundary. */
const SLOT_MS = 900_000;

const MEASURES = [
  'steps',
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

/**
 * The statistics' read model of the session tables (the sessions module writes them; this only reads): every
 * figure is aggregated in PostgreSQL, only grouped rows come back. Messages in range: `time_created` in `[from, to)`.
 */
@Injectable()
export class UsageStatsRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** The IANA zone names PostgreSQL knows. */
  async timeZones(): Promise<string[]> {
    const rows: Array<{ name: string }> = await this.db.query('SELECT name FROM pg_timezone_names');
    return rows.map((row) => row.name);
  }

  /** The first user or assistant message before `to`, or undefined when there is none. */
  async earliest(project: string | undefined, to: number): Promise<number | undefined> {
    const rows: Array<{ first: string | null }> = await this.db.query(
      `SELECT min(m.time_created) AS first FROM session_message m
       ${project === undefined ? '' : 'JOIN session s ON s.id = m.session_id AND s.project_id = $2'}
       WHERE m.type IN ('user', 'assistant') AND m.time_created < $1`,
      project === undefined ? [to] : [to, project],
    );
    return rows[0]?.first === null || rows[0] === undefined ? undefined : Number(rows[0].first);
  }

  /** Root and child sessions with a user or assistant message in range: one index probe or two each. */
  async sessions(range: UsageRange): Promise<{ sessions: number; subagents: number }> {
    const inRange = (type: string) =>
      `EXISTS (SELECT 1 FROM session_message m WHERE m.session_id = s.id AND m.type = '${type}'
         AND m.time_created >= $1 AND m.time_created < $2)`;
    const rows: Array<{ sessions: string; subagents: string }> = await this.aggregate(
      `SELECT count(*) FILTER (WHERE s.parent_id IS NULL) AS sessions,
              count(*) FILTER (WHERE s.parent_id IS NOT NULL) AS subagents
       FROM session s
       WHERE ${range.project === undefined ? 'TRUE' : 's.project_id = $3'}
         AND (${inRange('user')} OR ${inRange('assistant')})`,
      this.params(range, []),
    );
    return { sessions: Number(rows[0].sessions), subagents: Number(rows[0].subagents) };
  }

  /**
   * Prompts, steps, tokens, cost and tool-call counts per calendar day and model, with the longest run of
   * consecutive days with steps (gaps and islands) on every row. The range's days in the zone are made
   * into epoch-ms bounds (the zone rules run once a day, not once a message); the whole 15-minute slots
   * of each day are read from `session_usage`, and only the parts of a slot at the range's ends (a `from`
   * or `to` off the quarter hour) from the messages themselves.
   */
  byDay(range: UsageRange): Promise<UsageDayRow[]> {
    return this.aggregate(this.byDaySql(range), this.params(range, [range.timezone]));
  }

  private byDaySql(range: UsageRange): string {
    const local = (ms: string) => `(to_timestamp(${ms} / 1000.0) AT TIME ZONE $3)::date::timestamp`;
    const epochMs = (time: string) => `(extract(epoch FROM (${time}) AT TIME ZONE $3) * 1000)::bigint`;
    const project = (column: string) => (range.project === undefined ? '' : `AND ${column} = $4`);
    const message = MEASURES.slice(1).map((c) => `coalesce(m.${c}, 0)`);
    return `WITH days AS (
         SELECT d::date AS day, greatest($1, ${epochMs('d')}) AS start,
                least($2, ${epochMs(`d + interval '1 day'`)}) AS stop
         FROM generate_series(${local('$1::bigint')}, ${local('($2::bigint - 1)')}, interval '1 day') d
       ),
       slots AS (
         SELECT day, start, stop, (start + ${SLOT_MS - 1}) / ${SLOT_MS} AS first, stop / ${SLOT_MS} AS last
         FROM days
       ),
       ends AS (
         SELECT day, start AS lo, least(stop, first * ${SLOT_MS}) AS hi FROM slots WHERE start < first * ${SLOT_MS}
         UNION ALL
         SELECT day, last * ${SLOT_MS}, stop FROM slots WHERE last >= first AND last * ${SLOT_MS} < stop
       ),
       usage AS (
         SELECT p.day, u.model, u.root, u.user_messages, ${MEASURES.map((c) => `u.${c}`).join(', ')}
         FROM slots p
         JOIN session_usage u ON u.slot >= p.first AND u.slot < p.last ${project('u.project_id')}
         UNION ALL
         SELECT e.day, coalesce(m.model, 'null'::jsonb), s.parent_id IS NULL, (m.type = 'user')::int,
                (m.type = 'assistant')::int, ${message.join(', ')}
         FROM ends e
         JOIN session_message m ON m.time_created >= e.lo AND m.time_created < e.hi AND m.type IN ('user', 'assistant')
         JOIN session s ON s.id = m.session_id ${project('s.project_id')}
       ),
       g AS (
         SELECT day, model, sum(user_messages) FILTER (WHERE root) AS prompts,
                ${MEASURES.map((c) => `sum(${c}) AS ${c}`).join(', ')}
         FROM usage GROUP BY day, model
         HAVING sum(steps) > 0 OR sum(user_messages) FILTER (WHERE root) > 0
       ),
       islands AS (
         SELECT count(*) AS length
         FROM (SELECT day - (row_number() OVER (ORDER BY day))::int AS island
               FROM (SELECT DISTINCT day FROM g WHERE steps > 0) d) x
         GROUP BY island
       )
       SELECT to_char(day, 'YYYY-MM-DD') AS day, nullif(model, 'null'::jsonb) AS model,
              coalesce(prompts, 0) AS prompts, ${MEASURES.join(', ')},
              (SELECT coalesce(max(length), 0) FROM islands)::int AS streak
       FROM g ORDER BY day`;
  }

  /**
   * Tool calls of assistant messages in range by name, from `session_tool_call` (covering index):
   * `completed` succeeded, `error` failed, anything else is unfinished, with the median of
   * `completed − (ran ?? created)`.
   */
  toolsByName(range: UsageRange): Promise<ToolUsageRow[]> {
    return this.aggregate(
      `SELECT name, count(*) AS calls,
              count(*) FILTER (WHERE outcome = 'completed') AS succeeded,
              count(*) FILTER (WHERE outcome = 'error') AS failed,
              percentile_cont(0.5) WITHIN GROUP (ORDER BY duration) AS duration_p50
       FROM session_tool_call
       WHERE time_created >= $1 AND time_created < $2
         ${range.project === undefined ? '' : 'AND session_id IN (SELECT id FROM session WHERE project_id = $3)'}
       GROUP BY name ORDER BY calls DESC, name`,
      this.params(range, []),
    );
  }

  /**
   * Runs one aggregate without JIT (compiling costs more than it saves at this size) and with room for
   * the hash tables and sorts of a year (which spill to disk under the default 4 MB).
   */
  private aggregate<T>(sql: string, params: unknown[]): Promise<T> {
    return this.db.transaction(async (manager) => {
      await manager.query(`SET LOCAL jit = off`);
      await manager.query(`SET LOCAL work_mem = '32MB'`);
      return manager.query(sql, params) as Promise<T>;
    });
  }

  private params(range: UsageRange, extra: unknown[]): unknown[] {
    return [range.from, range.to, ...extra, ...(range.project === undefined ? [] : [range.project])];
  }
}
