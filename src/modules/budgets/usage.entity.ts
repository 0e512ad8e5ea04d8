import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/** One metered request: who (member or service account, with which key), which model, tokens and cost. */
@Entity('usage')
@Index(['workspaceId', 'createdAt'])
export class UsageEntity {
  @PrimaryGeneratedColumn('identity', { type: 'bigint', generatedIdentity: 'ALWAYS' })
  id!: string;

  @Column('varchar', { length: 40 })
  workspaceId!: string;

  /** A person (`usr_…`) or a service account (`sa_…`). */
  @Column('varchar', { length: 40 })
  memberId!: string;

  @Column('varchar', { length: 40, nullable: true })
  keyId!: string | null;

  @Column('varchar', { length: 200 })
  model!: string;

  @Column('integer')
  inputTokens!: number;

  @Column('integer')
  outputTokens!: number;

  @Column('integer', { default: 0 })
  cacheReadTokens!: number;

  @Column('integer', { default: 0 })
  cacheWriteTokens!: number;

  /** Micro-cents (1 USD = 100,000,000). */
  @Column('bigint')
  costMicroCents!: string;

  @Column('timestamptz')
  createdAt!: Date;
}
