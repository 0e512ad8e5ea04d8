/** What COPY's text format escapes; NUL, which no text column holds, becomes U+FFFD. */
const SPECIAL = /[\\\t\n\r\0]/;
const ESCAPES: Record<string, string> = {
  '\\': '\\\\',
  '\t': '\\t',
  '\n': '\\n',
  '\r': '\\r',
  '\0': '\uFFFD',
};

/** A value as a field of COPY's text format: `\N` for null, text escaped, numbers as they are. */
export function copyText(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return '\\N';
  if (typeof value === 'number') return String(value);
  return SPECIAL.test(value) ? value.replace(/[\\\t\n\r\0]/g, (c) => ESCAPES[c]) : value;
}
