import type { RequestLogStreamEntity } from './request-log-stream.entity';

/** A stream's row as the batch writes it (`json_to_recordset`): cost and times as text. */
export type StreamRow = Omit<RequestLogStreamEntity, 'costMicroCents' | 'createdAt' | 'updatedAt'> & {
  costMicroCents: string;
  createdAt: string;
  updatedAt: string;
};

/** What one batch writes of the streams: rows to insert or update, and the ids of streams that ended. */
export interface StreamWrites {
  upserts: StreamRow[];
  deletes: string[];
}

/**
 * The request log's streams in flight (table `request_log_stream`): which rows changed since the last batch, which
 * are in the database, and which ended and must go. A stream that starts and ends between two batches is never
 * written.
 */
export class StreamRows {
  private readonly live = new Map<string, StreamRow>();
  private readonly changed = new Set<string>();
  private readonly written = new Set<string>();
  private readonly ended = new Set<string>();

  get pending(): boolean {
    return this.changed.size > 0 || this.ended.size > 0;
  }

  start(row: StreamRow): void {
    this.live.set(row.id, row);
    this.changed.add(row.id);
  }

  /** What the stream has used and billed so far, as of `at` (ISO time). */
  progress(id: string, inputTokens: number, outputTokens: number, cost: bigint, at: string): void {
    const row = this.live.get(id);
    if (!row) return;
    Object.assign(row, { inputTokens, outputTokens, costMicroCents: cost.toString(), updatedAt: at });
    this.changed.add(id);
  }

  /** The stream's own row is on its way: its in-flight row goes (if it was ever written). */
  end(id: string): void {
    this.live.delete(id);
    this.changed.delete(id);
    if (this.written.delete(id)) this.ended.add(id);
  }

  /** What the next batch writes; counted as written already, so a stream ending meanwhile is deleted next time. */
  take(): StreamWrites {
    const upserts = [...this.changed].map((id) => this.live.get(id)!);
    const deletes = [...this.ended];
    this.changed.clear();
    this.ended.clear();
    for (const row of upserts) this.written.add(row.id);
    return { upserts, deletes };
  }

  /** A batch that failed: written again with the next (a stream that ended meanwhile is deleted instead). */
  failed({ upserts, deletes }: StreamWrites): void {
    for (const id of deletes) this.ended.add(id);
    for (const row of upserts) if (this.live.has(row.id)) this.changed.add(row.id);
  }
}
