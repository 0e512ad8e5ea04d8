import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { bigintNumber } from './bigint.transformer';
import { SessionMessageEntity } from './session-message.entity';

/**
 * One tool call of an assistant message, for per-tool usage stats: a narrow row to aggregate instead of
 * every message's content. Kept by PostgreSQL triggers on `session_message` (SessionToolCalls migration)
 * from the message's tool parts when it is stored and whenever its tool-call counts change (a call
 * appears, completes or fails); deleted with its message.
 */
@Entity()
/** Stats: the calls of a time range with what they add up to, read from the index alone. */
@Index('session_tool_call_created_idx', { synchronize: false })
export class SessionToolCallEntity {
  @PrimaryColumn({ type: 'varchar', length: 64, collation: 'C' })
  sessionId!: string;

  @PrimaryColumn({ type: 'varchar', length: 64, collation: 'C' })
  messageId!: string;

  /** The call's position among the message's tool parts, from 1. */
  @PrimaryColumn({ type: 'integer' })
  part!: number;

  @ManyToOne(() => SessionMessageEntity, { onDelete: 'CASCADE' })
  @JoinColumn([
    { name: 'session_id', referencedColumnName: 'sessionId' },
    { name: 'message_id', referencedColumnName: 'id' },
  ])
  message?: SessionMessageEntity;

  /** The message's `time_created`. */
  @Column({ type: 'bigint', transformer: bigintNumber })
  timeCreated!: number;

  @Column({ type: 'text' })
  name!: string;

  /** `completed`, `error`, or `unfinished` for any other state. */
  @Column({ type: 'varchar', length: 16 })
  outcome!: 'completed' | 'error' | 'unfinished';

  /** `completed − (ran ?? created)` in ms once completed (or failed with a completion time). */
  @Column({ type: 'bigint', nullable: true, transformer: bigintNumber })
  duration!: number | null;
}
