import type { RequestLogRowDto } from './dto/request-log.dto';

const CSV_COLUMNS: Array<keyof RequestLogRowDto> = [
  'time',
  'request_id',
  'member',
  'key',
  'route',
  'model',
  'served_by',
  'status',
  'outcome',
  'input_tokens',
  'output_tokens',
  'cost_micro_cents',
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
    ...rows.map((row) => CSV_COLUMNS.map((c) => csvCell(row[c])).join(',')),
  ];
  return lines.join('\r\n') + '\r\n';
}
