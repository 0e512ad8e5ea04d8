import { LineJournal } from '@/common/fs/line-journal';
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

/** A journal another process left: its node id and what it holds, each record with its sequence number. */
export interface Leftover {
  nodeId: string;
  paths: string[];
  records: Array<{ seq: number; settlement: Settlement }>;
}

/**
 * A node's usage journal on its own disk, `<data>/usage-journal/<node id>.<pid>.<n>.jsonl` (a LineJournal): every
 * settlement is appended before the caller gets the answer's last byte (what one turn of the event loop settled
 * goes out in one write, no fsync: the kernel keeps it when the process is killed; the answers wait for that turn's
 * end), and a batch's segments go once it is in the database (`cut`, `release`). A process killed with SIGKILL
 * before its batch was written leaves the journal behind; the next process on the same data directory writes it to
 * the database (UsageLedger.recover), exactly once: each batch records the journal's last sequence number it wrote
 * (`usage_journal`), in the same statement.
 */
export class UsageJournal {
  private readonly lines: LineJournal;
  private seq = 0;

  constructor(dir: string, nodeId: string, failed: (error: Error) => void) {
    this.lines = new LineJournal(dir, nodeId, failed);
  }

  get nodeId(): string {
    return this.lines.nodeId;
  }

  /**
   * Appends a settlement; answers its sequence number. The settlements appended in one turn of the event loop are
   * written together, in one write, before the next turn (`written` resolves then).
   */
  append(settlement: Settlement): number {
    this.seq += 1;
    this.lines.append(encode(this.seq, settlement));
    return this.seq;
  }

  /** Resolves once every settlement appended so far is in the file. */
  written(): Promise<void> {
    return this.lines.written();
  }

  /** A batch takes everything appended so far: later records go to the next segment. Answers the cut. */
  cut(): number {
    return this.lines.cut();
  }

  /** Everything appended before `cut` is in the database: its segments go (sequence numbers keep counting). */
  release(cut: number): void {
    this.lines.release(cut);
  }

  /** The process stops with everything written: its journal goes. */
  remove(): void {
    this.lines.remove();
  }

  /** The process stops with records unwritten (the database is down): its journal stays for the next one. */
  keep(): void {
    this.lines.keep();
  }

  /** A leftover journal is in the database: it goes. */
  discard(leftover: Leftover): void {
    this.lines.discard(leftover);
  }

  /** Journals of processes that are gone, left in this data directory. */
  leftovers(): Leftover[] {
    return this.lines
      .leftovers()
      .map(({ nodeId, paths, lines }) => ({ nodeId, paths, records: lines.flatMap(decode) }));
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

/** A journal line's record; none for a last line cut short by the kill. */
function decode(line: string): Leftover['records'] {
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
}
