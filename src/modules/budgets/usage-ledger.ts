import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { BatchSchedule } from '@/common/batch-schedule';
import { Clock } from '@/common/clock';
import { Transactions } from '@/database/transaction';
import { UsageRepository } from './usage.repository';
import { join } from 'node:path';
import { GatewayNodesRepository } from './gateway-nodes.repository';
import { HoldLease } from './hold-lease';
import { appConfig, AppConfig } from '@/config/app.config';
import { Settlement, UsageJournal } from './usage-journal';
import { SettlementSums } from './settlement-sums';

/** How long a settlement waits for company before it is written, and the most written in one statement. */
export const FLUSH_EVERY_MS = 200;
const BATCH_SIZE = 500;
/** How often what calls in flight have produced so far is recorded (UsageLedger.watch). */
export const PROGRESS_EVERY_MS = 1_000;

/** A call's record as the gateway gives it: its usage and the holds it gives back. */
export type SettlementPart = Omit<Settlement, 'at' | 'requests'>;

/** What a call in flight has produced since its last record, or nothing new. */
export type Progress = () => SettlementPart | undefined;

/**
 * The gateway's settlements, written in batches: one statement inserts a batch's usage rows, adds each
 * member's and workspace's spend and releases their holds. A settlement is written within `FLUSH_EVERY_MS` (or at once past
 * `BATCH_SIZE`), and whatever is pending is written when the server stops. Until it is written a request's
 * hold stays in place, so a budget can never be passed in between; a failed write is retried `FLUSH_EVERY_MS` later.
 * Each settlement is also appended to the node's journal (UsageJournal) before the caller has the whole answer,
 * so a process killed with SIGKILL loses none: the next process on its data directory writes what it left.
 */
@Injectable()
export class UsageLedger implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(UsageLedger.name);
  /** What was settled since the last write began, summed (SettlementSums). */
  private batch = new SettlementSums();
  /** A batch whose write failed: written again, before `batch`, on the next flush. */
  private failed?: SettlementSums;
  private readonly journal: UsageJournal;
  private readonly schedule = new BatchSchedule(
    FLUSH_EVERY_MS,
    () => this.writePending(),
    () => this.failed !== undefined || this.batch.count > 0,
    (error) => this.logger.error(`usage batch write failed, retrying: ${error.message}`),
  );
  private readonly inFlight = new Set<Progress>();
  private progressTimer?: NodeJS.Timeout;
  /** Calls waiting for holds to be given back (CallBudgets), woken when a write ends. */
  private writeWaiters: Array<() => void> = [];

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
      const unwritten = new SettlementSums();
      for (const { seq, settlement } of records)
        if (seq > after) unwritten.add({ ...settlement, held: 0n, workspaceHeld: 0n, keyHeld: 0n }, seq);
      if (unwritten.count > 0) await this.usage.writeBatch(unwritten.statement(nodeId), tx);
      await this.usage.forgetJournal(nodeId, tx);
      return unwritten.count;
    });
  }

  /** Records what a request cost and gives its holds back, soon; `requests` 0 for a call still in flight. */
  settle(part: SettlementPart, requests = 1): void {
    const { usage, held, workspaceHeld, keyHeld } = part;
    const settlement: Settlement = { usage, held, workspaceHeld, keyHeld, at: this.clock.now(), requests };
    this.batch.add(settlement, this.journal.append(settlement));
    this.schedule.added(this.batch.count >= BATCH_SIZE);
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
    return this.schedule.flush();
  }

  /** Resolves when this node's next write ends (its holds are given back then), or after `mostMs`. */
  nextWrite(mostMs: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, mostMs);
      this.writeWaiters.push(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }

  async onApplicationShutdown(): Promise<void> {
    await this.schedule.stop();
    const unwritten = this.batch.count + (this.failed?.count ?? 0);
    if (unwritten > 0) {
      this.logger.error(`${unwritten} usage records could not be written; they stay in the journal`);
      this.journal.keep();
      return; // the lease stays, so a live process releases the holds these records did not
    }
    this.journal.remove();
    await this.usage.forgetJournal(this.lease.nodeId).catch(() => undefined);
    await this.lease.end().catch((error: Error) => this.logger.warn(`lease not ended: ${error.message}`));
  }

  /**
   * Writes the failed batch, if any, then what was settled until now: one statement each, in the journal's order;
   * then the journal's segments they came from go. What is settled meanwhile waits for the next write.
   */
  private async writePending(): Promise<void> {
    try {
      await this.writeCut();
    } finally {
      const waiters = this.writeWaiters;
      this.writeWaiters = [];
      for (const wake of waiters) wake();
    }
  }

  private async writeCut(): Promise<void> {
    const cut = this.journal.cut();
    for (let left = (this.failed ? 1 : 0) + (this.batch.count > 0 ? 1 : 0); left > 0; left--) {
      const batch = this.failed ?? this.batch;
      if (!this.failed) this.batch = new SettlementSums();
      this.failed = undefined;
      try {
        await this.usage.writeBatch(batch.statement(this.lease.nodeId));
      } catch (error) {
        this.failed = batch;
        this.logger.warn(`usage batch of ${batch.count} not written, retrying: ${(error as Error).message}`);
        // Retried soon; not once the server stops (the last flush's rows stay in the journal).
        this.schedule.retry();
        return;
      }
    }
    this.journal.release(cut);
  }
}
