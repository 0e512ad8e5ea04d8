import { Column, Entity, PrimaryColumn } from 'typeorm';
import { bigintNumber } from './bigint.transformer';
import { ModelRef } from './session.types';

/**
 * The usage of user and assistant messages per 15-minute slot (UTC), project, root or child session and
 * model: what usage stats add up instead of every message. Every local midnight of every current time zone
 * falls on a slot boundary, so whole calendar days in any zone are whole slots.
 *
 * Kept by PostgreSQL triggers on `session_message` and `session` (SessionUsage migration), in the
 * transaction of each write: inserted, updated and deleted messages, copies into forks, moved sessions
 * and deleted session trees. Rows are never deleted; one that nets to zero stays at zero.
 */
@Entity()
export class SessionUsageEntity {
  /** `time_created / 900000`. */
  @PrimaryColumn({ type: 'bigint', transformer: bigintNumber })
  slot!: number;

  @PrimaryColumn({ type: 'varchar', length: 200 })
  projectId!: string;

  /** The session has no parent. */
  @PrimaryColumn({ type: 'boolean' })
  root!: boolean;

  /** The model of the assistant turns; JSON `null` for user messages. */
  @PrimaryColumn({ type: 'jsonb' })
  model!: ModelRef | null;

  @Column({ type: 'bigint', default: 0, transformer: bigintNumber })
  userMessages!: number;

  /** Assistant messages. */
  @Column({ type: 'bigint', default: 0, transformer: bigintNumber })
  steps!: number;

  @Column({ type: 'bigint', default: 0, transformer: bigintNumber })
  tokensInput!: number;

  @Column({ type: 'bigint', default: 0, transformer: bigintNumber })
  tokensOutput!: number;

  @Column({ type: 'bigint', default: 0, transformer: bigintNumber })
  tokensReasoning!: number;

  @Column({ type: 'bigint', default: 0, transformer: bigintNumber })
  tokensCacheRead!: number;

  @Column({ type: 'bigint', default: 0, transformer: bigintNumber })
  tokensCacheWrite!: number;

  /** Micro-cents (1 USD = 100,000,000). */
  @Column({ type: 'bigint', default: 0, transformer: bigintNumber })
  cost!: number;

  @Column({ type: 'bigint', default: 0, transformer: bigintNumber })
  toolCalls!: number;

  @Column({ type: 'bigint', default: 0, transformer: bigintNumber })
  toolSucceeded!: number;

  @Column({ type: 'bigint', default: 0, transformer: bigintNumber })
  toolFailed!: number;
}
