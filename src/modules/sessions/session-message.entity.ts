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
/** Stats: a session's prompts or steps in a time range, read from the index alone. */
@Index('session_message_session_type_created_idx', ['sessionId', 'type', 'timeCreated'])
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

  /**
   * Derived from `data` by PostgreSQL for usage stats, so every writer keeps them right: the model of an
   * assistant turn, and its tool calls (all, completed, failed). The triggers that keep `session_usage` and
   * `session_tool_call` read them.
   */
  @Column({
    type: 'jsonb',
    nullable: true,
    insert: false,
    update: false,
    generatedType: 'STORED',
    asExpression: `CASE WHEN type = 'assistant' THEN data->'model' END`,
  })
  model!: Record<string, unknown> | null;

  @Column({
    type: 'integer',
    insert: false,
    update: false,
    generatedType: 'STORED',
    asExpression: `CASE WHEN type = 'assistant' THEN jsonb_array_length(jsonb_path_query_array(data, '$.content[*] ? (@.type == "tool")')) ELSE 0 END`,
  })
  toolCalls!: number;

  @Column({
    type: 'integer',
    insert: false,
    update: false,
    generatedType: 'STORED',
    asExpression: `CASE WHEN type = 'assistant' THEN jsonb_array_length(jsonb_path_query_array(data, '$.content[*] ? (@.type == "tool" && @.state.status == "completed")')) ELSE 0 END`,
  })
  toolSucceeded!: number;

  @Column({
    type: 'integer',
    insert: false,
    update: false,
    generatedType: 'STORED',
    asExpression: `CASE WHEN type = 'assistant' THEN jsonb_array_length(jsonb_path_query_array(data, '$.content[*] ? (@.type == "tool" && @.state.status == "error")')) ELSE 0 END`,
  })
  toolFailed!: number;
}
