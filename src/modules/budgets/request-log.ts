import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { Clock } from '@/common/clock';
import { SequentialUlids } from '@/common/ids';
import { RequestLogEntity } from './request-log.entity';
import { RequestLogFilter, RequestLogRepository } from './request-log.repository';
import { requestLogConfig, RequestLogConfig } from './request-log.config';

const FLUSH_EVERY_MS = 200;
const BATCH_SIZE = 500;
const PRUNE_EVERY_MS = 60 * 60_000;

/** One call as the gateway reports it. */
export type RequestLogInput = Omit<RequestLogEntity, 'id' | 'createdAt' | 'costMicroCents'> & {
  costMicroCents: bigint;
};

export type { RequestLogFilter } from './request-log.repository';

/**
 * The gateway's per-request log, written like usage: in batches of one statement (`json_to_recordset`) within
 * `FLUSH_EVERY_MS`, so the hot path only pushes an object; what is pending is written when the server stops.
 * Rows older than `OUTPOST_REQUEST_LOG_DAYS` are pruned at start and every hour.
 */
@Injectable()
export class RequestLog implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(RequestLog.name);
  private pending: Array<Record<string, unknown>> = [];
  private timer?: NodeJS.Timeout;
  private pruner?: NodeJS.Timeout;
  private flushing = Promise.resolve();
  private readonly ids = new SequentialUlids('rql');

  constructor(
    private readonly entries: RequestLogRepository,
    @Inject(requestLogConfig.KEY) private readonly config: RequestLogConfig,
    private readonly clock: Clock,
  ) {}

  add(entry: RequestLogInput): void {
    const now = this.clock.now();
    this.pending.push({
      ...entry,
      id: this.ids.next(now),
      costMicroCents: entry.costMicroCents.toString(),
      createdAt: new Date(now).toISOString(),
    });
    if (this.pending.length >= BATCH_SIZE) void this.flush();
    else this.timer ??= setTimeout(() => void this.flush(), FLUSH_EVERY_MS);
  }

  flush(): Promise<void> {
    this.flushing = this.flushing.then(() => this.writePending());
    return this.flushing;
  }

  onApplicationBootstrap(): void {
    void this.prune();
    this.pruner = setInterval(() => void this.prune(), PRUNE_EVERY_MS);
    this.pruner.unref();
  }

  async onApplicationShutdown(): Promise<void> {
    clearInterval(this.pruner);
    await this.flush();
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

  private async writePending(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    while (this.pending.length > 0) {
      const batch = this.pending.slice(0, BATCH_SIZE);
      try {
        await this.entries.insertBatch(JSON.stringify(batch));
        this.pending = this.pending.slice(batch.length);
      } catch (error) {
        this.logger.warn(
          `request log batch of ${batch.length} not written, retrying: ${(error as Error).message}`,
        );
        this.timer ??= setTimeout(() => void this.flush(), FLUSH_EVERY_MS);
        return;
      }
    }
  }
}
