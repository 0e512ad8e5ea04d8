import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * One gateway call, answered or refused: who made it, with which key, for which model (and which served it), how
 * it ended, what it used and cost, and how long it took. Kept `OUTPOST_REQUEST_LOG_DAYS` days; `id` is time-ordered
 * (`rql_<ulid>`), so pages go by id.
 */
@Entity('request_log')
@Index(['workspaceId', 'id'])
export class RequestLogEntity {
  @PrimaryColumn('varchar', { length: 40 })
  id!: string;

  @Column('varchar', { length: 40 })
  workspaceId!: string;

  @Column('varchar', { length: 40 })
  memberId!: string;

  @Column('varchar', { length: 40, nullable: true })
  keyId!: string | null;

  /** The `x-request-id` the caller got. */
  @Column('varchar', { length: 100 })
  requestId!: string;

  /** The route's pattern, e.g. `/inference/openai/v1/chat/completions`. */
  @Column('varchar', { length: 100 })
  route!: string;

  /** What the caller named in `model` (a model, a route, or nothing readable). */
  @Column('varchar', { length: 200 })
  model!: string;

  @Column('varchar', { length: 200, nullable: true })
  servedBy!: string | null;

  @Column('int')
  status!: number;

  /** `answered`, `upstream_refused`, `budget_refused`, `rate_limited`, `policy_refused`, `invalid`, `failed`, … */
  @Column('varchar', { length: 30 })
  outcome!: string;

  @Column('int')
  inputTokens!: number;

  @Column('int')
  outputTokens!: number;

  @Column('bigint')
  costMicroCents!: string;

  @Column('int')
  durationMs!: number;

  /** Time until the answer began (its status line); null when no answer began. */
  @Column('int', { nullable: true })
  ttfbMs!: number | null;

  @Column('timestamptz')
  createdAt!: Date;
}
