import { walk as walkFiles, WalkEntry } from '@/common/fs/walk';
import { ToolAbortedError } from './tool.errors';

export { IGNORED_DIRECTORIES, WalkEntry } from '@/common/fs/walk';

/** How many skipped links a note names; the rest are counted. */
const NAMED = 20;

/** The project's file walk (src/common/fs/walk.ts) for tools: an aborted walk is the tool call interrupted. */
export async function* walk(root: string, signal: AbortSignal, boundary: string): AsyncGenerator<WalkEntry> {
  try {
    yield* walkFiles(root, signal, { boundary });
  } catch (error) {
    if (signal.aborted) throw new ToolAbortedError();
    throw error;
  }
}

/**
 * What a tool tells the model about links it skipped because they lead outside the location: their paths, and
 * how to ask for one (by path, which asks `external_directory`). Empty when there were none.
 */
export function outsideNote(skipped: string[]): string {
  if (skipped.length === 0) return '';
  const named = skipped.slice(0, NAMED).join(', ');
  const more = skipped.length > NAMED ? ` and ${skipped.length - NAMED} more` : '';
  return (
    `\n(skipped ${skipped.length === 1 ? 'a link' : 'links'} leading outside the location: ${named}${more}; ` +
    'name one as the path to be asked for external_directory)'
  );
}
