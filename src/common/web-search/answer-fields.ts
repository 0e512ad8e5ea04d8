import { SearchResult } from './web-search.types';

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const text = (value: unknown) => (typeof value === 'string' ? value : '');

/**
 * The `list` of objects found at `path` in an answer, read as results: `title`, `url`, and the snippet from the
 * member each API names it (`description`, `content`, `text`). Anything else is skipped.
 */
export function resultsAt(answer: unknown, path: string[], snippet: string): SearchResult[] {
  let at: unknown = answer;
  for (const key of path) at = isRecord(at) ? at[key] : undefined;
  if (!Array.isArray(at)) return [];
  return at.filter(isRecord).flatMap((entry) => {
    const url = text(entry.url);
    if (!url) return [];
    return [{ title: text(entry.title), url, snippet: text(entry[snippet]) }];
  });
}
