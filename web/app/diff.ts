import { diffArrays } from 'diff';

export interface DiffLine {
  kind: 'same' | 'removed' | 'added';
  text: string;
}

/** How long a diff may take in the browser (ms) before the edit is shown as "all removed, all added". */
const TIMEOUT_MS = 200;

/** A line diff of `before` and `after` (jsdiff's Myers diff), for showing an edit. */
export function lineDiff(before: string, after: string): DiffLine[] {
  const a = before.split('\n');
  const b = after.split('\n');
  const changes = diffArrays(a, b, { timeout: TIMEOUT_MS });
  if (!changes) {
    return [
      ...a.map((text) => ({ kind: 'removed' as const, text })),
      ...b.map((text) => ({ kind: 'added' as const, text })),
    ];
  }
  return changes.flatMap((change) => {
    const kind = change.added ? 'added' : change.removed ? 'removed' : 'same';
    return change.value.map((text) => ({ kind, text }));
  });
}
