/** Lines of unchanged text shown around a change. */
const CONTEXT = 3;

export interface FileDiff {
  /** A unified diff of the file (one hunk spanning every change), as opencode's clients draw it. */
  diff: string;
  additions: number;
  deletions: number;
}

/**
 * The change from `before` to `after` as a unified diff. The lines both share at the start and at the end are
 * context; everything between them is one hunk (an edit changes one region, `replaceAll` a few nearby ones).
 */
export function unifiedDiff(path: string, before: string, after: string): FileDiff {
  const a = splitLines(before);
  const b = splitLines(after);
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (
    tail < a.length - head &&
    tail < b.length - head &&
    a[a.length - 1 - tail] === b[b.length - 1 - tail]
  )
    tail++;
  const removed = a.slice(head, a.length - tail);
  const added = b.slice(head, b.length - tail);
  const header = [`Index: ${path}`, '='.repeat(67), `--- ${path}`, `+++ ${path}`];
  if (removed.length === 0 && added.length === 0) {
    return { diff: `${header.join('\n')}\n`, additions: 0, deletions: 0 };
  }
  const start = Math.max(0, head - CONTEXT);
  const before_ = a.slice(start, head);
  const after_ = a.slice(a.length - tail, Math.min(a.length, a.length - tail + CONTEXT));
  const oldCount = before_.length + removed.length + after_.length;
  const newCount = before_.length + added.length + after_.length;
  const range = (from: number, count: number) => `${count === 0 ? from : from + 1},${count}`;
  const lines = [
    ...header,
    `@@ -${range(start, oldCount)} +${range(start, newCount)} @@`,
    ...before_.map((line) => ` ${line}`),
    ...removed.map((line) => `-${line}`),
    ...added.map((line) => `+${line}`),
    ...after_.map((line) => ` ${line}`),
  ];
  return { diff: `${lines.join('\n')}\n`, additions: added.length, deletions: removed.length };
}

function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split('\n');
  if (text.endsWith('\n')) lines.pop();
  return lines;
}
