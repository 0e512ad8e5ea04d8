import {
  closeSync,
  ftruncateSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeSync,
} from 'node:fs';
import { join } from 'node:path';

/** The journals open in this process, by path (in-process test apps share one pid). */
const LIVE_HERE = new Set<string>();

/** A journal another process left: its writer's id and its lines (the last one may be cut short by the kill). */
export interface LeftoverLines {
  nodeId: string;
  path: string;
  lines: string[];
}

/**
 * A process's journal of lines on its own disk, `<dir>/<node id>.<pid>.jsonl`, the part UsageJournal and the
 * request log share: the lines appended in one turn of the event loop go out in one write at its end (no fsync:
 * the kernel keeps them when the process is killed; `written` resolves then, so an answer can wait for that turn
 * without a write per line), the file starts over once its owner has everything in the database, and the next
 * process on the same directory finds what dead processes left (`leftovers`).
 */
export class LineJournal {
  private readonly path: string;
  private fd?: number;
  /** What this turn of the event loop appended, written at its end. */
  private unwritten?: { lines: string[]; done: Promise<void>; resolve: () => void };
  private failing = false;

  constructor(
    private readonly dir: string,
    readonly nodeId: string,
    private readonly failed: (error: Error) => void,
  ) {
    this.path = join(dir, `${nodeId}.${process.pid}.jsonl`);
    LIVE_HERE.add(this.path);
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

  /** Everything appended is in the database: the journal starts over. */
  clear(): void {
    if (this.fd !== undefined && !this.unwritten) ftruncateSync(this.fd, 0);
  }

  /** The process stops with everything in the database: its journal goes. */
  remove(): void {
    this.close();
    rmSync(this.path, { force: true });
  }

  /** The process stops with lines not in the database (it is down): its journal stays for the next one. */
  keep(): void {
    this.close();
  }

  /** A leftover journal is in the database: it goes. */
  discard(leftover: Pick<LeftoverLines, 'path'>): void {
    rmSync(leftover.path, { force: true });
  }

  /** Journals of processes that are gone, left in this directory. */
  leftovers(): LeftoverLines[] {
    let names: string[];
    try {
      names = readdirSync(this.dir);
    } catch {
      return [];
    }
    return names.flatMap((name) => {
      const match = /^([\w-]+)\.(\d+)\.jsonl$/.exec(name);
      const path = join(this.dir, name);
      if (!match || match[1] === this.nodeId || alive(path, Number(match[2]))) return [];
      const lines = readFileSync(path, 'utf8')
        .split('\n')
        .filter((line) => line.length > 0);
      return [{ nodeId: match[1], path, lines }];
    });
  }

  private close(): void {
    this.write();
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
    LIVE_HERE.delete(this.path);
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

  private file(): number {
    if (this.fd === undefined) {
      mkdirSync(this.dir, { recursive: true });
      this.fd = openSync(this.path, 'a', 0o600);
    }
    return this.fd;
  }
}

/** Whether the process that wrote a journal still runs: a journal open here, or another live pid. */
function alive(path: string, pid: number): boolean {
  if (pid === process.pid) return LIVE_HERE.has(path);
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
