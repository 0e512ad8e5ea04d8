import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { Clock } from '@/common/clock';
import { SequentialUlids } from '@/common/ids';
import { poolQuery } from '@/database/pool-query';
import { RequestLogEntity } from './request-log.entity';
import { requestLogConfig, RequestLogConfig } from './request-log.config';

const FLUSH_EVERY_MS = 200;
const BATCH_SIZE = 500;
const PRUNE_EVERY_MS = 60 * 60_000;

/** One call as the gateway reports it. */
export type RequestLogInput = Omit<RequestLogEntity, 'id' | 'createdAt' | 'costMicroCents'> & {
  costMicroCents: bigint;
};

/** What a page of the log may be narrowed to. */
export interface RequestLogFilter {
  memberId?: string;
  keyId?: string;
  model?: string;
  status?: number;
  from?: Date;
  to?: Date;
}

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
    @InjectDataSource() private readonly db: DataSource,
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
  async page(
    workspaceId: string,
    filter: RequestLogFilter,
    limit: number,
    cursor?: string,
  ): Promise<RequestLogEntity[]> {
    const query = this.db
      .getRepository(RequestLogEntity)
      .createQueryBuilder('r')
      .where('r.workspace_id = :workspaceId', { workspaceId });
    if (cursor) query.andWhere('r.id < :cursor', { cursor });
    if (filter.memberId) query.andWhere('r.member_id = :memberId', { memberId: filter.memberId });
    if (filter.keyId) query.andWhere('r.key_id = :keyId', { keyId: filter.keyId });
    if (filter.model) query.andWhere('(r.model = :model OR r.served_by = :model)', { model: filter.model });
    if (filter.status !== undefined) query.andWhere('r.status = :status', { status: filter.status });
    if (filter.from) query.andWhere('r.created_at >= :from', { from: filter.from });
    if (filter.to) query.andWhere('r.created_at < :to', { to: filter.to });
    return query.orderBy('r.id', 'DESC').limit(limit).getMany();
  }

  /** Removes what is older than the retention period; answers how many rows went. */
  async prune(): Promise<number> {
    try {
      const cutoff = new Date(this.clock.now() - this.config.days * 86_400_000);
      const rows = await poolQuery<{ n: string }>(
        this.db,
        'WITH gone AS (DELETE FROM request_log WHERE created_at < $1 RETURNING 1) SELECT count(*) AS n FROM gone',
        [cutoff],
      );
      return Number(rows[0].n);
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
        await poolQuery(
          this.db,
          `INSERT INTO request_log (id, workspace_id, member_id, key_id, request_id, route, model, served_by, status,
                                    outcome, input_tokens, output_tokens, cost_micro_cents, duration_ms, ttfb_ms,
                                    created_at)
           SELECT id, "workspaceId", "memberId", "keyId", "requestId", route, model, "servedBy", status, outcome,
                  "inputTokens", "outputTokens", "costMicroCents", "durationMs", "ttfbMs", "createdAt"
             FROM json_to_recordset($1::json) AS r(id varchar, "workspaceId" varchar, "memberId" varchar,
                  "keyId" varchar, "requestId" varchar, route varchar, model varchar, "servedBy" varchar, status int,
                  outcome varchar, "inputTokens" int, "outputTokens" int, "costMicroCents" bigint, "durationMs" int,
                  "ttfbMs" int, "createdAt" timestamptz)`,
          [JSON.stringify(batch)],
        );
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
