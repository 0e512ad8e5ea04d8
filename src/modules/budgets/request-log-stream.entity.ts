import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * A gateway stream in flight, as the request log will show it: written within 200 ms of its start and updated
 * with what it has billed every second, so that when its process dies a live one (releasing the dead process's
 * holds) writes its request log row as `cut`, with what it had billed. Deleted when the stream's own row is written.
 */
@Entity('request_log_stream')
@Index(['nodeId'])
export class RequestLogStreamEntity {
  /** The id its request log row will have (`rql_…`). */
  @PrimaryColumn('varchar', { length: 40 })
  id!: string;

  /** The gateway process serving it (`gateway_node.id`). */
  @Column('varchar', { length: 40 })
  nodeId!: string;

  @Column('varchar', { length: 40 })
  workspaceId!: string;

  @Column('varchar', { length: 40 })
  memberId!: string;

  @Column('varchar', { length: 40, nullable: true })
  keyId!: string | null;

  @Column('varchar', { length: 100 })
  requestId!: string;

  @Column('varchar', { length: 100 })
  route!: string;

  @Column('varchar', { length: 200 })
  model!: string;

  @Column('varchar', { length: 200, nullable: true })
  servedBy!: string | null;

  @Column('int')
  status!: number;

  @Column('int')
  inputTokens!: number;

  @Column('int')
  outputTokens!: number;

  @Column('bigint')
  costMicroCents!: string;

  @Column('int', { nullable: true })
  ttfbMs!: number | null;

  @Column('timestamptz')
  createdAt!: Date;

  /** When it was last recorded (its start, or its last progress). */
  @Column('timestamptz')
  updatedAt!: Date;
}
