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
import { StreamRows, StreamWrites } from './request-log-streams';

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
 * Each row is also appended to the node's journal (`<data>/request-log-journal/<node id>.<pid>.<n>.copy`, lines of
 * COPY's text format; a LineJournal: one write per turn of the event loop) before the caller has the answer's end (the gateway waits
 * for `journaled`), so a process killed with SIGKILL loses none: the next process on its data directory writes
 * what it left, each row once (rows are inserted by id, an id already there skipped).
 * A stream in flight also has a row in `request_log_stream` (written with the next batch, its billed cost brought up
 * to date every second), so that when this process dies without its disk, a live process releasing its holds
 * logs the stream as `cut` with what it had billed (GatewayNodesRepository).
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
    () => this.pending.length > 0 || this.streams.pending,
    (error) => this.logger.error(`request log batch write failed, retrying: ${error.message}`),
  );
  private readonly ids = new SequentialUlids('rql');
  /** Streams in flight, kept in `request_log_stream` so a live process logs them as cut if this one dies. */
  private readonly streams = new StreamRows();
  private readonly nodeId: string;

  constructor(
    private readonly entries: RequestLogRepository,
    @Inject(requestLogConfig.KEY) private readonly config: RequestLogConfig,
    private readonly clock: Clock,
    lease: HoldLease,
    @Inject(appConfig.KEY) app: AppConfig,
  ) {
    this.nodeId = lease.nodeId;
    this.journal = new LineJournal(
      join(app.dataDir, 'request-log-journal'),
      lease.nodeId,
      (error) => this.logger.warn(`request log journal not written: ${error.message}`),
      'copy',
    );
  }

  /**
   * A stream begins (its answer's head is written): its in-flight row is written with the next batch and brought
   * up to date with `streamProgress`; `add` with the id returned writes its own row and drops the in-flight one.
   */
  startStream(entry: RequestLogInput): string {
    const now = this.clock.now();
    const at = new Date(now).toISOString();
    const id = this.ids.next(now);
    this.streams.start({
      id,
      nodeId: this.nodeId,
      workspaceId: entry.workspaceId,
      memberId: entry.memberId,
      keyId: entry.keyId,
      requestId: entry.requestId,
      route: entry.route,
      model: entry.model,
      servedBy: entry.servedBy,
      status: entry.status,
      inputTokens: entry.inputTokens,
      outputTokens: entry.outputTokens,
      costMicroCents: entry.costMicroCents.toString(),
      ttfbMs: entry.ttfbMs,
      createdAt: at,
      updatedAt: at,
    });
    this.schedule.added(false);
    return id;
  }

  /** What a stream in flight has used and billed so far (recorded every second, as its usage is). */
  streamProgress(id: string, inputTokens: number, outputTokens: number, cost: bigint): void {
    this.streams.progress(id, inputTokens, outputTokens, cost, new Date(this.clock.now()).toISOString());
    this.schedule.added(false);
  }

  /** A call's row; `streamId`: the id `startStream` gave the call, whose in-flight row this one replaces. */
  add(entry: RequestLogInput, streamId?: string): void {
    const now = this.clock.now();
    if (streamId) this.streams.end(streamId);
    // Every member named: spreading `entry` into a copy costs more than the line (bench/gateway's profile).
    const line = encodeRow({
      id: streamId ?? this.ids.next(now),
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

  /** The names of the members, keys and connections a page names by id (RequestLogRepository.names). */
  names(workspaceId: string, ids: { members: string[]; keys: string[]; connections: string[] }) {
    return this.entries.names(workspaceId, ids);
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
    // Taken with the rows: a stream that ends later keeps its in-flight row until its own row is written.
    const streams = this.streams.take();
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
        this.streams.failed(streams);
        this.schedule.retry();
        return;
      } finally {
        this.writing = 0;
      }
    }
    this.journal.release(cut);
    await this.writeStreams(streams);
  }

  /** The streams in flight that changed, and those whose own row is written (after it, so one row is always there). */
  private async writeStreams(writes: StreamWrites): Promise<void> {
    try {
      if (writes.upserts.length > 0) await this.entries.upsertStreams(JSON.stringify(writes.upserts));
      if (writes.deletes.length > 0) await this.entries.deleteStreams(writes.deletes);
    } catch (error) {
      this.streams.failed(writes);
      this.logger.warn(`request log streams not written, retrying: ${(error as Error).message}`);
      this.schedule.retry();
    }
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
