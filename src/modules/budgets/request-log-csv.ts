import { microCentsToUsd } from '@/common/money';
import type { RequestLogRowDto } from './dto/request-log.dto';

type CsvRow = RequestLogRowDto & { cost_dollars: string };

/**
 * The columns: every one of the JSON rows' ids kept for tools, each followed by the name a person reads, and the
 * cost in dollars (exact, `0.0000105`) beside the micro-cents.
 */
const CSV_COLUMNS: Array<keyof CsvRow> = [
  'time',
  'request_id',
  'member',
  'member_name',
  'key',
  'key_name',
  'route',
  'model',
  'model_name',
  'served_by',
  'status',
  'outcome',
  'input_tokens',
  'output_tokens',
  'cost_micro_cents',
  'cost_dollars',
  'duration_ms',
  'ttfb_ms',
];

/**
 * A CSV cell: quoted when it holds a comma, quote or line break. One a spreadsheet would take for a formula is
 * defused with a leading quote: it starts with =, +, - or @, or with a TAB or CR, which spreadsheets skip before
 * reading the rest as a formula (OWASP's list for CSV injection).
 */
export function csvCell(value: unknown): string {
  if (value === null || value === undefined) return '';
  let text = String(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** The request log's rows as a CSV file: a header line, then a line per row, each ended by CRLF. */
export function requestLogCsv(rows: RequestLogRowDto[]): string {
  const lines = [
    CSV_COLUMNS.join(','),
    ...rows
      .map((row): CsvRow => ({ ...row, cost_dollars: microCentsToUsd(BigInt(row.cost_micro_cents)) }))
      .map((row) => CSV_COLUMNS.map((c) => csvCell(row[c])).join(',')),
  ];
  return lines.join('\r\n') + '\r\n';
}
