import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { bigintNumber } from './bigint.transformer';
import { SessionEntity } from './session.entity';
import { SessionMessageType } from './session-message.types';

/**
 * One message of a session's projected transcript (shapes in `session-message.types.ts`). The key is
 * `(session_id, id)`: a session's messages read in id order (`msg_` ids ascend with time), and a fork keeps
 * the ids of the messages it copies. Usage columns are set on assistant turns only, for stats.
 */
@Entity()
@Index('session_message_created_idx', ['timeCreated'])
/** Stats: does a session have a message in a time range (one probe per session). */
@Index('session_message_session_created_idx', ['sessionId', 'timeCreated'])
export class SessionMessageEntity {
  @PrimaryColumn({ type: 'varchar', length: 64, collation: 'C' })
  sessionId!: string;

  @PrimaryColumn({ type: 'varchar', length: 64, collation: 'C' })
  id!: string;

  @ManyToOne(() => SessionEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'session_id' })
  session?: SessionEntity;

  @Column({ type: 'varchar', length: 32 })
  type!: SessionMessageType;

  /** The variant's members other than id, type and time (metadata included). */
  @Column({ type: 'jsonb', default: () => "'{}'" })
  data!: Record<string, unknown>;

  @Column({ type: 'bigint', transformer: bigintNumber })
  timeCreated!: number;

  @Column({ type: 'bigint', nullable: true, transformer: bigintNumber })
  timeCompleted!: number | null;

  @Column({ type: 'bigint', nullable: true, transformer: bigintNumber })
  tokensInput!: number | null;

  @Column({ type: 'bigint', nullable: true, transformer: bigintNumber })
  tokensOutput!: number | null;

  @Column({ type: 'bigint', nullable: true, transformer: bigintNumber })
  tokensReasoning!: number | null;

  @Column({ type: 'bigint', nullable: true, transformer: bigintNumber })
  tokensCacheRead!: number | null;

  @Column({ type: 'bigint', nullable: true, transformer: bigintNumber })
  tokensCacheWrite!: number | null;

  /** Micro-cents (1 USD = 100,000,000). */
  @Column({ type: 'bigint', nullable: true, transformer: bigintNumber })
  cost!: number | null;
}
