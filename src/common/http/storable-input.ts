import { InvalidRequestError, RequestPart } from '../errors';

/** Deepest nesting of arrays and objects a JSON body may have; deeper ones are refused before parsing. */
export const MAX_JSON_DEPTH = 64;

/** Whether the JSON text nests arrays and objects deeper than `max` (one pass, strings skipped). */
export function nestsDeeperThan(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92 /* \ */) i++;
      else if (c === 34 /* " */) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 123 /* { */ || c === 91 /* [ */) {
      if (++depth > max) return true;
    } else if (c === 125 /* } */ || c === 93 /* ] */) depth--;
  }
  return false;
}

/** A NUL character, or half of a UTF-16 surrogate pair on its own: valid in a JS string, refused by PostgreSQL. */
const UNSTORABLE = /\0|\p{Cs}/u;

/** Whether PostgreSQL can store the text (text and jsonb columns). */
export function storable(text: string): boolean {
  return !UNSTORABLE.test(text);
}

/**
 * The dotted path of the first string (value or key) PostgreSQL cannot store: it has a NUL character or a lone
 * surrogate (`"\ud800"`, which no UTF-8 text can hold). Undefined when every string is storable.
 */
export function findUnstorable(value: unknown, path = ''): string | undefined {
  if (typeof value === 'string') return UNSTORABLE.test(value) ? path || '(body)' : undefined;
  if (value === null || typeof value !== 'object') return undefined;
  const entries = Array.isArray(value)
    ? value.map((item, index) => [String(index), item] as const)
    : Object.entries(value);
  for (const [key, item] of entries) {
    const field = path ? `${path}.${key}` : key;
    if (UNSTORABLE.test(key)) return field;
    const found = findUnstorable(item, field);
    if (found) return found;
  }
  return undefined;
}

/** The one edge rule for every part of every request: an unstorable character is a 400 naming the field. */
export function assertStorable(value: unknown, kind: RequestPart, path = ''): void {
  const field = findUnstorable(value, path);
  if (field !== undefined) {
    throw new InvalidRequestError(
      `${field}: must not contain a NUL character or a lone UTF-16 surrogate`,
      field,
      kind,
    );
  }
}
