import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { Clock } from '@/common/clock';
import { Transaction, Transactions } from '@/database/transaction';
import { UsageInput } from './usage-input';
import { UsageRepository } from './usage.repository';
import { join } from 'node:path';
import { GatewayNodesRepository } from './gateway-nodes.repository';
import { HoldLease } from './hold-lease';
import { utcMonth } from '@/common/money';
import { appConfig, AppConfig } from '@/config/app.config';
import { Settlement, UsageJournal } from './usage-journal';

/** How long a settlement waits for company before it is written, and the most written in one statement. */
export const FLUSH_EVERY_MS = 200;
const BATCH_SIZE = 500;
/** How often what calls in flight have produced so far is recorded (UsageLedger.watch). */
export const PROGRESS_EVERY_MS = 1_000;

/** A call's record as the gateway gives it: its usage and the holds it gives back. */
export type SettlementPart = Omit<Settlement, 'at' | 'requests'>;

/** A settlement waiting for its batch, with its number in this process's journal. */
type Pending = Settlement & { seq: number };

/** What a call in flight has produced since its last record, or nothing new. */
export type Progress = () => SettlementPart | undefined;

interface Spend {
  month: number;
  spent: bigint;
  released: bigint;
  /** Of a member's entry: what the workspace's row held for their calls (this process's `budget_hold`). */
  workspaceReleased: bigint;
}

/** Adds a settlement to a member's or workspace's total: spend of the newest month only, every hold released. */
function add(
  totals: Map<string, Spend>,
  key: string,
  at: number,
  cost: bigint,
  released: bigint,
  workspaceReleased = 0n,
): void {
  const month = utcMonth(at).start.getTime();
  const entry = totals.get(key) ?? { month, spent: 0n, released: 0n, workspaceReleased: 0n };
  if (month > entry.month) Object.assign(entry, { month, spent: 0n });
  if (month === entry.month) entry.spent += cost;
  entry.released += released;
  entry.workspaceReleased += workspaceReleased;
  totals.set(key, entry);
}

const byKey = ([a]: [string, unknown], [b]: [string, unknown]) => (a < b ? -1 : a > b ? 1 : 0);

const day = (month: number) => new Date(month).toISOString().slice(0, 10);

/** The most an `integer` column holds: a row that would pass it in tokens starts another. */
const MAX_TOKENS = 2 ** 31 - 1;

/** A usage row being summed: `n` requests, their tokens and cost, `at` the latest settlement (epoch ms). */
interface UsageRow {
  w: string;
  m: string;
  k: string | null;
  model: string;
  n: number;
  i: number;
  o: number;
  cr: number;
  cw: number;
  c: bigint;
  at: number;
}

/** A usage row as the batch statement reads it (`json_to_recordset`): cost and time as text. */
type UsageRowJson = Omit<UsageRow, 'c' | 'at'> & { c: string; at: string };

/** Whether a settlement's tokens still fit in `row`'s integer columns. */
function fits(row: UsageRow, usage: UsageInput): boolean {
  return (
    row.i + usage.inputTokens <= MAX_TOKENS &&
    row.o + usage.outputTokens <= MAX_TOKENS &&
    row.cr + (usage.cacheReadTokens ?? 0) <= MAX_TOKENS &&
    row.cw + (usage.cacheWriteTokens ?? 0) <= MAX_TOKENS
  );
}

/**
 * A batch's settlements as usage rows: one per member, key and model for each second, requests, tokens and cost
 * summed. A busy key writes a row a second instead of a row a request (the database load of a spend row per
 * request is what LiteLLM's users complain of), and reports by day, member, key or model add up the same.
 */
export function usageRows(batch: Settlement[]): UsageRowJson[] {
  const open = new Map<string, UsageRow>();
  const rows: UsageRow[] = [];
  for (const { usage, at, requests } of batch) {
    const group = `${usage.workspaceId}\n${usage.memberId}\n${usage.keyId ?? ''}\n${usage.model}\n${Math.floor(at / 1000)}`;
    let row = open.get(group);
    if (!row || !fits(row, usage)) {
      const { workspaceId: w, memberId: m, keyId, model } = usage;
      row = { w, m, k: keyId ?? null, model, n: 0, i: 0, o: 0, cr: 0, cw: 0, c: 0n, at };
      open.set(group, row);
      rows.push(row);
    }
    row.n += requests;
    row.i += usage.inputTokens;
    row.o += usage.outputTokens;
    row.cr += usage.cacheReadTokens ?? 0;
    row.cw += usage.cacheWriteTokens ?? 0;
    row.c += usage.costMicroCents;
    row.at = Math.max(row.at, at);
  }
  return rows.map((row) => ({ ...row, c: row.c.toString(), at: new Date(row.at).toISOString() }));
}

/**
 * The gateway's settlements, written in batches: one statement inserts a batch's usage rows, adds each
 * member's and workspace's spend and releases their holds. A settlement is written within `FLUSH_EVERY_MS` (or at once past
 * `BATCH_SIZE`), and whatever is pending is written when the server stops. Until it is written a request's
 * hold stays in place, so a budget can never be passed in between; a failed write is retried on the next tick.
 * Each settlement is also appended to the node's journal (UsageJournal) before the caller has the whole answer,
 * so a process killed with SIGKILL loses none: the next process on its data directory writes what it left.
 */
@Injectable()
export class UsageLedger implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(UsageLedger.name);
  private pending: Pending[] = [];
  private readonly journal: UsageJournal;
  private timer?: NodeJS.Timeout;
  private flushing = Promise.resolve();
  private readonly inFlight = new Set<Progress>();
  private progressTimer?: NodeJS.Timeout;

  constructor(
    private readonly usage: UsageRepository,
    private readonly nodes: GatewayNodesRepository,
    private readonly transactions: Transactions,
    private readonly clock: Clock,
    private readonly lease: HoldLease,
    @Inject(appConfig.KEY) app: AppConfig,
  ) {
    this.journal = new UsageJournal(join(app.dataDir, 'usage-journal'), lease.nodeId, (error) =>
      this.logger.warn(`usage journal not written: ${error.message}`),
    );
  }

  async onApplicationBootstrap(): Promise<void> {
    for (const leftover of this.journal.leftovers()) {
      try {
        const written = await this.recover(leftover.nodeId, leftover.records);
        this.journal.discard(leftover);
        if (written > 0)
          this.logger.warn(
            `wrote ${written} usage records that process ${leftover.nodeId} journaled before it died`,
          );
      } catch (error) {
        this.logger.error(`usage journal of ${leftover.nodeId} not written: ${(error as Error).message}`);
      }
    }
  }

  /**
   * Writes what a dead process journaled and its batches had not: in one transaction, under a lock on its id,
   * its leftover holds are given back (as HoldLease does for any expired lease) and its records after the last
   * one it wrote are written with no hold of their own. Answers how many were written.
   */
  private recover(nodeId: string, records: Array<{ seq: number; settlement: Settlement }>): Promise<number> {
    return this.transactions.run(async (tx) => {
      await this.usage.lockJournal(tx, nodeId);
      const after = await this.usage.writtenSeq(tx, nodeId);
      await this.nodes.releaseNode(tx, nodeId);
      const unwritten = records
        .filter((record) => record.seq > after)
        .map(({ seq, settlement }) => ({ ...settlement, held: 0n, workspaceHeld: 0n, keyHeld: 0n, seq }));
      if (unwritten.length > 0) await this.write(unwritten, tx, nodeId);
      await this.usage.forgetJournal(nodeId, tx);
      return unwritten.length;
    });
  }

  /** Records what a request cost and gives its holds back, soon; `requests` 0 for a call still in flight. */
  settle(part: SettlementPart, requests = 1): void {
    const settlement: Pending = { ...part, at: this.clock.now(), requests, seq: 0 };
    settlement.seq = this.journal.append(settlement);
    this.pending.push(settlement);
    if (this.pending.length >= BATCH_SIZE) void this.flush();
    else this.timer ??= setTimeout(() => void this.flush(), FLUSH_EVERY_MS);
  }

  /** Resolves once what was settled so far is in the journal: the caller may have the answer's end then. */
  journaled(): Promise<void> {
    return this.journal.written();
  }

  /**
   * Records what a call in flight has produced every PROGRESS_EVERY_MS, so a process killed mid-stream has
   * billed all but the last second of it (and the rest of its hold is released by a live process). Returns the
   * function that stops watching, called before the call's last record.
   */
  watch(progress: Progress): () => void {
    this.inFlight.add(progress);
    this.progressTimer ??= setInterval(() => this.recordProgress(), PROGRESS_EVERY_MS);
    return () => {
      this.inFlight.delete(progress);
      if (this.inFlight.size === 0) {
        clearInterval(this.progressTimer);
        this.progressTimer = undefined;
      }
    };
  }

  private recordProgress(): void {
    for (const progress of this.inFlight) {
      const part = progress();
      if (part) this.settle(part, 0);
    }
  }

  /** Writes everything pending (one statement per batch); resolves when written. */
  flush(): Promise<void> {
    this.flushing = this.flushing.then(() => this.writePending());
    return this.flushing;
  }

  async onApplicationShutdown(): Promise<void> {
    await this.flush();
    if (this.pending.length > 0) {
      this.logger.error(
        `${this.pending.length} usage records could not be written; they stay in the journal`,
      );
      this.journal.keep();
      return; // the lease stays, so a live process releases the holds these records did not
    }
    this.journal.remove();
    await this.usage.forgetJournal(this.lease.nodeId).catch(() => undefined);
    await this.lease.end().catch((error: Error) => this.logger.warn(`lease not ended: ${error.message}`));
  }

  private async writePending(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    while (this.pending.length > 0) {
      const batch = this.pending.slice(0, BATCH_SIZE);
      try {
        await this.write(batch);
        this.pending = this.pending.slice(batch.length);
        if (this.pending.length === 0) this.journal.clear();
      } catch (error) {
        this.logger.warn(`usage batch of ${batch.length} not written, retrying: ${(error as Error).message}`);
        this.timer ??= setTimeout(() => void this.flush(), FLUSH_EVERY_MS);
        return;
      }
    }
  }

  /**
   * The batch's usage rows (`usageRows`); the spend per member for the newest month in the batch (a row of an older
   * month stays in `usage` without touching the newer month's spend), and every hold of the batch released.
   */
  private async write(batch: Pending[], tx?: Transaction, nodeId = this.lease.nodeId): Promise<void> {
    const members = new Map<string, Spend>();
    const workspaces = new Map<string, Spend>();
    for (const { usage, held, workspaceHeld, keyHeld, at } of batch) {
      add(members, `${usage.workspaceId}\n${usage.memberId}`, at, usage.costMicroCents, held, workspaceHeld);
      // A key's spend beside its member's, under the key's id: what its own budget (KeyBudgets) is held to.
      if (usage.keyId)
        add(members, `${usage.workspaceId}\n${usage.keyId}`, at, usage.costMicroCents, keyHeld);
      add(workspaces, usage.workspaceId, at, usage.costMicroCents, workspaceHeld);
    }
    // The usage rows as one JSON text: pg would format ten arrays element by element (bench/gateway's profile).
    const rows = JSON.stringify(usageRows(batch));
    await this.usage.writeBatch(
      {
        rows,
        // In one order on every node: two nodes' batches lock the same spend rows, and in their own orders they
        // could each hold a row the other waits for (a deadlock, found after a second, and a batch retried).
        members: [...members].sort(byKey).map(([key, entry]) => {
          const [workspaceId, memberId] = key.split('\n');
          return {
            workspaceId,
            memberId,
            month: day(entry.month),
            spent: entry.spent.toString(),
            released: entry.released.toString(),
            workspaceReleased: entry.workspaceReleased.toString(),
          };
        }),
        workspaces: [...workspaces].sort(byKey).map(([workspaceId, entry]) => ({
          workspaceId,
          month: day(entry.month),
          spent: entry.spent.toString(),
          released: entry.released.toString(),
        })),
        nodeId,
        writtenSeq: batch[batch.length - 1].seq,
      },
      tx,
    );
  }
}
