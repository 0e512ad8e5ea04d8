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
import { UsageInput, usageValues } from './usage-input';

/** A call's record in the usage ledger: its usage, the holds it gives back, when, and whether it is the last. */
export interface Settlement {
  usage: UsageInput;
  held: bigint;
  /** What the workspace's row holds for it (0 when the workspace has no limit). */
  workspaceHeld: bigint;
  /** What its key's own budget holds for it (KeyBudgets; 0 when the key has none). */
  keyHeld: bigint;
  /** When it was settled (epoch ms). */
  at: number;
  /** 1 for a call's last record, 0 for what a call in flight produced so far. */
  requests: number;
}

/** Node ids of the ledgers running in this process (in-process test apps share one pid). */
const LIVE_HERE = new Set<string>();

/** A journal another process left: its node id and what it holds, each record with its sequence number. */
export interface Leftover {
  nodeId: string;
  path: string;
  records: Array<{ seq: number; settlement: Settlement }>;
}

/**
 * A node's usage journal on its own disk, `<data>/usage-journal/<node id>.<pid>.jsonl`: every settlement is
 * appended before the caller gets the answer's last byte (what one turn of the event loop settled goes out in one
 * write, no fsync: the kernel keeps it when the process is killed; the answers wait for that turn's end), and the
 * file starts over whenever everything appended is in the database. A process killed with SIGKILL before its
 * batch was written leaves the journal behind; the next process on the same data directory writes it to the
 * database (UsageLedger.recover), exactly once: each batch records the journal's last sequence number it wrote
 * (`usage_journal`), in the same statement.
 */
export class UsageJournal {
  private readonly path: string;
  private fd?: number;
  private seq = 0;
  /** What this turn of the event loop appended, written at its end. */
  private unwritten?: { lines: string[]; done: Promise<void>; resolve: () => void };
  private failing = false;

  constructor(
    private readonly dir: string,
    readonly nodeId: string,
    private readonly failed: (error: Error) => void,
  ) {
    this.path = join(dir, `${nodeId}.${process.pid}.jsonl`);
    LIVE_HERE.add(nodeId);
  }

  /**
   * Appends a settlement; answers its sequence number. The settlements appended in one turn of the event loop are
   * written together, in one write, before the next turn (`written` resolves then).
   */
  append(settlement: Settlement): number {
    this.seq += 1;
    if (!this.unwritten) {
      let resolve!: () => void;
      const done = new Promise<void>((settled) => (resolve = settled));
      this.unwritten = { lines: [], done, resolve };
      setImmediate(() => this.write());
    }
    this.unwritten.lines.push(encode(this.seq, settlement));
    return this.seq;
  }

  /** Resolves once every settlement appended so far is in the file. */
  written(): Promise<void> {
    return this.unwritten?.done ?? Promise.resolve();
  }

  /** Everything appended is in the database: the journal starts over (sequence numbers keep counting). */
  clear(): void {
    if (this.fd !== undefined && !this.unwritten) ftruncateSync(this.fd, 0);
  }

  /** The process stops with everything written: its journal goes. */
  remove(): void {
    this.write();
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
    rmSync(this.path, { force: true });
    LIVE_HERE.delete(this.nodeId);
  }

  /** The process stops with records unwritten (the database is down): its journal stays for the next one. */
  keep(): void {
    this.write();
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
    LIVE_HERE.delete(this.nodeId);
  }

  /** A leftover journal is in the database: it goes. */
  discard(leftover: Leftover): void {
    rmSync(leftover.path, { force: true });
  }

  /** Journals of processes that are gone, left in this data directory. */
  leftovers(): Leftover[] {
    let names: string[];
    try {
      names = readdirSync(this.dir);
    } catch {
      return [];
    }
    return names.flatMap((name) => {
      const match = /^(node_[0-9a-f]+)\.(\d+)\.jsonl$/.exec(name);
      if (!match || match[1] === this.nodeId || alive(match[1], Number(match[2]))) return [];
      const path = join(this.dir, name);
      return [{ nodeId: match[1], path, records: decodeAll(readFileSync(path, 'utf8')) }];
    });
  }

  private write(): void {
    const unwritten = this.unwritten;
    if (!unwritten) return;
    this.unwritten = undefined;
    try {
      writeSync(this.file(), `${unwritten.lines.join('\n')}\n`);
      this.failing = false;
    } catch (error) {
      // The disk failed: the records still go to the database in their batch; only a kill would lose them now.
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

/** Whether the process that wrote a journal still runs: another ledger here, or another live pid. */
function alive(nodeId: string, pid: number): boolean {
  if (pid === process.pid) return LIVE_HERE.has(nodeId);
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** One line: a JSON array (no keys, amounts as text), the cheapest to write on the hot path. */
function encode(seq: number, { usage, held, workspaceHeld, keyHeld, at, requests }: Settlement): string {
  return JSON.stringify([
    seq,
    at,
    requests,
    ...usageValues(usage),
    held.toString(),
    workspaceHeld.toString(),
    keyHeld.toString(),
  ]);
}

/** The journal's records; a last line cut short by the kill is skipped. */
function decodeAll(text: string): Leftover['records'] {
  return text.split('\n').flatMap((line) => {
    try {
      const [seq, at, requests, workspaceId, memberId, keyId, model, i, o, cr, cw, cost, held, wHeld, kHeld] =
        JSON.parse(line) as [number, number, number, string, string, string | null, string, ...unknown[]];
      const usage = {
        workspaceId,
        memberId,
        keyId,
        model,
        inputTokens: Number(i),
        outputTokens: Number(o),
        cacheReadTokens: Number(cr),
        cacheWriteTokens: Number(cw),
        costMicroCents: BigInt(cost as string),
      };
      const amounts = { held: BigInt(held as string), workspaceHeld: BigInt(wHeld as string) };
      return [{ seq, settlement: { usage, ...amounts, keyHeld: BigInt(kHeld as string), at, requests } }];
    } catch {
      return [];
    }
  });
}
