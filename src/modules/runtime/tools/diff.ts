import { formatPatch, structuredPatch } from 'diff';

/** Lines of unchanged text shown around a change. */
const CONTEXT = 3;

export interface FileDiff {
  /** A unified diff of the file, as opencode's clients draw it (`Index:` line first, as jsdiff's `createPatch`). */
  diff: string;
  additions: number;
  deletions: number;
}

/** The change from `before` to `after` as a unified diff (jsdiff), with the lines it adds and removes. */
export function unifiedDiff(path: string, before: string, after: string): FileDiff {
  const patch = structuredPatch(path, path, before, after, undefined, undefined, { context: CONTEXT });
  const lines = patch.hunks.flatMap((hunk) => hunk.lines);
  return {
    diff: formatPatch(patch),
    additions: lines.filter((line) => line.startsWith('+')).length,
    deletions: lines.filter((line) => line.startsWith('-')).length,
  };
}
