import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { join } from 'node:path';
import { BatchSchedule } from '@/common/batch-schedule';
import { Clock } from '@/common/clock';
import { LeftoverLines, LineJournal } from '@/common/fs/line-journal';
import { SequentialUlids } from '@/common/ids';
import { appConfig, AppConfig } from '@/config/app.config';
import { HoldLease } from './hold-lease';
import { RequestLogEntity } from './request-log.entity';
import { decodeRow, encodeRow } from './request-log-row';
import { RequestLogFilter, RequestLogRepository } from './request-log.repository';
import { requestLogConfig, RequestLogConfig } from './request-log.config';

const FLUSH_EVERY_MS = 200;
const BATCH_SIZE = 500;
const PRUNE_EVERY_MS = 60 * 60_000;
/** PostgreSQL's error code for a row whose key is there already. */
const UNIQUE_VIOLATION = '23505';

/** One call as the gateway reports it. */
export type RequestLogInput = Omit<RequestLogEntity, 'id' | 'createdAt' | 'costMicroCents'> & {
  costMicroCents: bigint;
};

export type { RequestLogFilter } from './request-log.repository';

/**
 * The gateway's per-request log, written like usage: in batches of one statement (COPY, request-log-row.ts) within
 * `FLUSH_EVERY_MS`, so the hot path only pushes a line; what is pending is written when the server stops.
 * Each row is also appended to the node's journal (`<data>/request-log-journal/<node id>.<pid>.<n>.jsonl`, a
 * LineJournal: one write per turn of the event loop) before the caller has the answer's end (the gateway waits
 * for `journaled`), so a process killed with SIGKILL loses none: the next process on its data directory writes
 * what it left, each row once (rows are inserted by id, an id already there skipped).
 * Rows older than `OUTPOST_REQUEST_LOG_DAYS` are pruned at start and every hour.
 */
@Injectable()
export class RequestLog implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(RequestLog.name);
  /** Rows waiting for their batch, each as its line of COPY's text format (the journal's line, `encodeRow`). */
  private pending: string[] = [];
  private readonly journal: LineJournal;
  private pruner?: NodeJS.Timeout;
  /** How many of the pending rows the write in flight takes. */
  private writing = 0;
  private readonly schedule = new BatchSchedule(
    FLUSH_EVERY_MS,
    () => this.writePending(),
    () => this.pending.length > 0,
    (error) => this.logger.error(`request log batch write failed, retrying: ${error.message}`),
  );
  private readonly ids = new SequentialUlids('rql');

  constructor(
    private readonly entries: RequestLogRepository,
    @Inject(requestLogConfig.KEY) private readonly config: RequestLogConfig,
    private readonly clock: Clock,
    lease: HoldLease,
    @Inject(appConfig.KEY) app: AppConfig,
  ) {
    this.journal = new LineJournal(join(app.dataDir, 'request-log-journal'), lease.nodeId, (error) =>
      this.logger.warn(`request log journal not written: ${error.message}`),
    );
  }

  add(entry: RequestLogInput): void {
    const now = this.clock.now();
    // Every member named: spreading `entry` into a copy costs more than the line (bench/gateway's profile).
    const line = encodeRow({
      id: this.ids.next(now),
      workspaceId: entry.workspaceId,
      memberId: entry.memberId,
      keyId: entry.keyId,
      requestId: entry.requestId,
      route: entry.route,
      model: entry.model,
      servedBy: entry.servedBy,
      status: entry.status,
      outcome: entry.outcome,
      inputTokens: entry.inputTokens,
      outputTokens: entry.outputTokens,
      costMicroCents: entry.costMicroCents.toString(),
      durationMs: entry.durationMs,
      ttfbMs: entry.ttfbMs,
      createdAt: new Date(now).toISOString(),
    });
    this.journal.append(line);
    this.pending.push(line);
    this.schedule.added(this.pending.length - this.writing >= BATCH_SIZE);
  }

  /** Resolves once the rows added so far are in the journal: the caller may have the answer's end then. */
  journaled(): Promise<void> {
    return this.journal.written();
  }

  flush(): Promise<void> {
    return this.schedule.flush();
  }

  async onApplicationBootstrap(): Promise<void> {
    for (const leftover of this.journal.leftovers()) await this.recover(leftover);
    void this.prune();
    this.pruner = setInterval(() => void this.prune(), PRUNE_EVERY_MS);
    this.pruner.unref();
  }

  async onApplicationShutdown(): Promise<void> {
    clearInterval(this.pruner);
    await this.schedule.stop();
    if (this.pending.length === 0) {
      this.journal.remove();
      return;
    }
    this.logger.error(
      `${this.pending.length} request log rows could not be written; they stay in the journal`,
    );
    this.journal.keep();
  }

  /** Writes the rows a dead process journaled (those its batches wrote are skipped), then drops its journal. */
  private async recover(leftover: LeftoverLines): Promise<void> {
    // A last line cut short by the kill is skipped.
    const rows = leftover.lines.flatMap((line) => decodeRow(line) ?? []);
    try {
      let written = 0;
      for (let at = 0; at < rows.length; at += BATCH_SIZE)
        written += await this.entries.insertMissing(JSON.stringify(rows.slice(at, at + BATCH_SIZE)));
      this.journal.discard(leftover);
      if (written > 0)
        this.logger.warn(
          `wrote ${written} request log rows that process ${leftover.nodeId} journaled before it died`,
        );
    } catch (error) {
      this.logger.error(`request log journal of ${leftover.nodeId} not written: ${(error as Error).message}`);
    }
  }

  /** Newest first, `limit` rows older than `cursor` (the id of the previous page's last row). */
  page(
    workspaceId: string,
    filter: RequestLogFilter,
    limit: number,
    cursor?: string,
  ): Promise<RequestLogEntity[]> {
    return this.entries.page(workspaceId, { filter, limit, cursor });
  }

  /** Removes what is older than the retention period; answers how many rows went. */
  async prune(): Promise<number> {
    try {
      const cutoff = new Date(this.clock.now() - this.config.days * 86_400_000);
      return await this.entries.pruneBefore(cutoff);
    } catch (error) {
      this.logger.warn(`request log not pruned: ${(error as Error).message}`);
      return 0;
    }
  }

  /**
   * Writes the rows pending now, in batches, then the journal's segments they came from go; rows added meanwhile
   * wait for the next write.
   */
  private async writePending(): Promise<void> {
    const cut = this.journal.cut();
    let left = this.pending.length;
    while (left > 0) {
      const batch = this.pending.slice(0, Math.min(left, BATCH_SIZE));
      this.writing = batch.length;
      try {
        await this.write(batch);
        this.pending = this.pending.slice(batch.length);
        left -= batch.length;
      } catch (error) {
        this.logger.warn(
          `request log batch of ${batch.length} not written, retrying: ${(error as Error).message}`,
        );
        // Retried soon; not once the server stops (the last flush's rows stay in the journal).
        this.schedule.retry();
        return;
      } finally {
        this.writing = 0;
      }
    }
    this.journal.release(cut);
  }

  /** A batch of new rows, with COPY; one that may have been written already (a retry) skips the rows there. */
  private async write(lines: string[]): Promise<void> {
    try {
      await this.entries.copyBatch(lines);
    } catch (error) {
      if ((error as { code?: string }).code !== UNIQUE_VIOLATION) throw error;
      await this.entries.insertMissing(JSON.stringify(lines.flatMap((line) => decodeRow(line) ?? [])));
    }
  }
}
