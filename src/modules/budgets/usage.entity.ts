import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/**
 * Metered requests: who (member or service account, with which key), which model, tokens and cost. The gateway's
 * ledger writes one row per member, key and model for each second of a batch (`requests` of them summed);
 * `BudgetsService.recordUsage` writes one row per request.
 */
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

  /** How many requests the row sums. */
  @Column('integer', { default: 1 })
  requests!: number;

  /** Micro-cents (1 USD = 100,000,000). */
  @Column('bigint')
  costMicroCents!: string;

  @Column('timestamptz')
  createdAt!: Date;
}
