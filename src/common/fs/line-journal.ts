import { closeSync, mkdirSync, openSync, readdirSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';

/** The journals open in this process, by `<dir>/<node id>.<pid>` (in-process test apps share one pid). */
const LIVE_HERE = new Set<string>();

/**
 * A journal file's name: `<node id>.<pid>.<segment>.<extension>` (an earlier version's `<node id>.<pid>.<extension>`
 * too). A journal also reads the `.jsonl` files earlier versions named every journal, so an upgrade loses none.
 */
function journalFile(extension: string): RegExp {
  return new RegExp(`^([\\w-]+)\\.(\\d+)(?:\\.(\\d+))?\\.(?:${extension}|jsonl)$`);
}

/** A journal another process left: its writer's id, its files and their lines (the last may be cut short by the kill). */
export interface LeftoverLines {
  nodeId: string;
  paths: string[];
  lines: string[];
}

/**
 * A process's journal of lines on its own disk, the part UsageJournal and the request log share: the lines
 * appended in one turn of the event loop go out in one write at its end (no fsync: the kernel keeps them when the
 * process is killed; `written` resolves then, so an answer can wait for that turn without a write per line).
 * It is kept in segments, `<dir>/<node id>.<pid>.<n>.<extension>` (`jsonl` for JSON lines, `copy` for lines of
 * COPY's text format): when its owner takes a batch to the database it
 * `cut`s the journal (later lines go to the next segment), and once that batch is in, `release` deletes the
 * segments cut so far, while the lines appended meanwhile stay journaled. The next process on the same directory
 * finds what dead processes left (`leftovers`).
 */
export class LineJournal {
  private readonly base: string;
  private readonly fileName: RegExp;
  private segment = 0;
  /** Segments cut and not yet released. */
  private readonly sealed: number[] = [];
  private fd?: number;
  /** What this turn of the event loop appended, written at its end. */
  private unwritten?: { lines: string[]; done: Promise<void>; resolve: () => void };
  private failing = false;

  constructor(
    private readonly dir: string,
    readonly nodeId: string,
    private readonly failed: (error: Error) => void,
    private readonly extension = 'jsonl',
  ) {
    this.base = join(dir, `${nodeId}.${process.pid}`);
    this.fileName = journalFile(extension);
    LIVE_HERE.add(this.base);
  }

  /** Appends a line (no newline in it); it is written with the rest of this turn's, before the next turn. */
  append(line: string): void {
    if (!this.unwritten) {
      let resolve!: () => void;
      const done = new Promise<void>((settled) => (resolve = settled));
      this.unwritten = { lines: [], done, resolve };
      setImmediate(() => this.write());
    }
    this.unwritten.lines.push(line);
  }

  /** Resolves once every line appended so far is in the file. */
  written(): Promise<void> {
    return this.unwritten?.done ?? Promise.resolve();
  }

  /**
   * Its owner takes everything appended so far to the database: the lines appended from now on go to a new
   * segment (this turn's, not written yet, go there too: a line twice is recovered once). Answers the cut, for
   * `release` once that write is in.
   */
  cut(): number {
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
    this.sealed.push(this.segment);
    return this.segment++;
  }

  /** Everything appended before `cut` is in the database: the segments up to it go. */
  release(cut: number): void {
    while (this.sealed.length > 0 && this.sealed[0] <= cut)
      removeFile(this.segmentPath(this.sealed.shift()!));
  }

  /** The process stops with everything in the database: its journal goes. */
  remove(): void {
    this.close();
    for (const segment of [...this.sealed, this.segment]) removeFile(this.segmentPath(segment));
    this.sealed.length = 0;
  }

  /** The process stops with lines not in the database (it is down): its journal stays for the next one. */
  keep(): void {
    this.close();
  }

  /** A leftover journal is in the database: it goes. */
  discard(leftover: Pick<LeftoverLines, 'paths'>): void {
    for (const path of leftover.paths) rmSync(path, { force: true });
  }

  /** Journals of processes that are gone, left in this directory: one per process, its segments in order. */
  leftovers(): LeftoverLines[] {
    let names: string[];
    try {
      names = readdirSync(this.dir);
    } catch {
      return [];
    }
    const journals = new Map<string, { nodeId: string; files: Array<{ path: string; segment: number }> }>();
    for (const name of names) {
      const match = this.fileName.exec(name);
      if (!match || match[1] === this.nodeId) continue;
      const writer = `${match[1]}.${match[2]}`;
      if (!journals.has(writer) && alive(join(this.dir, writer), Number(match[2]))) continue;
      const journal = journals.get(writer) ?? { nodeId: match[1], files: [] };
      journal.files.push({ path: join(this.dir, name), segment: Number(match[3] ?? -1) });
      journals.set(writer, journal);
    }
    return [...journals.values()].map(({ nodeId, files }) => {
      const paths = files.sort((a, b) => a.segment - b.segment).map((file) => file.path);
      const lines = paths.flatMap((path) =>
        readFileSync(path, 'utf8')
          .split('\n')
          .filter((line) => line.length > 0),
      );
      return { nodeId, paths, lines };
    });
  }

  private close(): void {
    this.write();
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
    LIVE_HERE.delete(this.base);
  }

  private write(): void {
    const unwritten = this.unwritten;
    if (!unwritten) return;
    this.unwritten = undefined;
    try {
      writeSync(this.file(), `${unwritten.lines.join('\n')}\n`);
      this.failing = false;
    } catch (error) {
      // The disk failed: the lines still go to the database in their batch; only a kill would lose them now.
      // Said once until a write succeeds again, not once per turn of the loop.
      if (!this.failing) this.failed(error as Error);
      this.failing = true;
    }
    unwritten.resolve();
  }

  private segmentPath(segment: number): string {
    return `${this.base}.${segment}.${this.extension}`;
  }

  private file(): number {
    if (this.fd === undefined) {
      mkdirSync(this.dir, { recursive: true });
      this.fd = openSync(this.segmentPath(this.segment), 'a', 0o600);
    }
    return this.fd;
  }
}

/**
 * Removes a segment whose lines are in the database. A journal folder that cannot be used (gone, a file, no rights)
 * leaves nothing to remove, and a segment left behind is only written again, each row once: never an error, which
 * would fail the batch that was just written (and, thrown from its timer, stop the process).
 */
function removeFile(path: string): void {
  try {
    rmSync(path, { force: true });
  } catch {}
}

/** Whether the process that wrote a journal (`<dir>/<node id>.<pid>`) still runs: one open here, or another live pid. */
function alive(base: string, pid: number): boolean {
  if (pid === process.pid) return LIVE_HERE.has(base);
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
