import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { bigintNumber } from '../../sessions/bigint.transformer';
import { SessionEntity } from '../../sessions/session.entity';
import type { Delivery, InboxItem } from './inbox.types';

/**
 * A session's durable inbox: every admitted input, in admission order (`seq`). A drain takes an item by setting
 * `time_taken` in the same transaction that records its effect (the user message, the move), so an item is
 * either waiting or done, never lost. Taken items stay, so a retried prompt `id` still conflicts.
 */
@Entity()
@Index('session_inbox_id_idx', ['sessionId', 'id'], { unique: true })
@Index('session_inbox_waiting_idx', ['sessionId', 'seq'], { where: 'time_taken IS NULL' })
export class SessionInboxEntity {
  @PrimaryGeneratedColumn('identity', { type: 'bigint', generatedIdentity: 'ALWAYS' })
  seq!: string;

  @Column({ type: 'varchar', length: 64, collation: 'C' })
  sessionId!: string;

  @ManyToOne(() => SessionEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'session_id' })
  session?: SessionEntity;

  @Column({ type: 'varchar', length: 64, collation: 'C' })
  id!: string;

  @Column({ type: 'varchar', length: 16 })
  type!: InboxItem['type'];

  @Column({ type: 'varchar', length: 8 })
  delivery!: Delivery;

  @Column({ type: 'jsonb' })
  payload!: Record<string, unknown>;

  @Column({ type: 'bigint', transformer: bigintNumber })
  timeCreated!: number;

  @Column({ type: 'bigint', nullable: true, transformer: bigintNumber })
  timeTaken!: number | null;
}
