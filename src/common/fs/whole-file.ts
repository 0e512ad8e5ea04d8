import { chmodSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { chmod, rename, rm, writeFile } from 'node:fs/promises';

let written = 0;
/** A name beside `file` that no other write of this process uses. */
const temporaryFor = (file: string) => `${file}.${process.pid}-${++written}.tmp`;

/**
 * Writes a file whole or not at all: a temporary copy beside it, given `mode`, renamed over it, so a reader (an
 * editor, a watcher, another process) never sees it missing or half written.
 */
export async function writeWholeFile(file: string, content: string | Buffer, mode: number): Promise<void> {
  const temporary = temporaryFor(file);
  try {
    await writeFile(temporary, content, { mode });
    await chmod(temporary, mode); // the umask may have taken bits off
    await rename(temporary, file);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}

/** `writeWholeFile`, for callers that cannot wait (small files at start and on change). */
export function writeWholeFileSync(file: string, content: string | Buffer, mode: number): void {
  const temporary = temporaryFor(file);
  try {
    writeFileSync(temporary, content, { mode });
    chmodSync(temporary, mode);
    renameSync(temporary, file);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw error;
  }
}
