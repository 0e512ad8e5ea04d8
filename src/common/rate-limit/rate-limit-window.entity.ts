import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * One fixed window of a shared rate limit (PostgresRateLimitStore): the events counted under `key` since
 * `windowStart`, until `expiresAt`. Every limit uses it: failed sign-ins per address and account, sign-ups, device
 * codes, the gateway's per-key requests and tokens. Expired rows are deleted by the store's sweep.
 */
@Entity('rate_limit_window')
export class RateLimitWindowEntity {
  @PrimaryColumn('varchar', { length: 400 })
  key!: string;

  @Column('timestamptz')
  windowStart!: Date;

  @Index()
  @Column('timestamptz')
  expiresAt!: Date;

  @Column('int')
  hits!: number;
}
