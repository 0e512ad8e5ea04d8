import { walk as walkFiles, WalkEntry } from '@/common/fs/walk';
import { ToolAbortedError } from './tool.errors';

export { IGNORED_DIRECTORIES, WalkEntry } from '@/common/fs/walk';

/** The project's file walk (src/common/fs/walk.ts) for tools: an aborted walk is the tool call interrupted. */
export async function* walk(root: string, signal: AbortSignal, prefix = ''): AsyncGenerator<WalkEntry> {
  try {
    yield* walkFiles(root, signal, prefix);
  } catch (error) {
    if (signal.aborted) throw new ToolAbortedError();
    throw error;
  }
}
