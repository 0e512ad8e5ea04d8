import { Column, Entity, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { bigintNumber } from '../sessions/bigint.transformer';
import { SessionEntity } from '../sessions/session.entity';

/**
 * A drain that is running. The row lives while the drain runs; one left behind by a process that died is
 * closed as interrupted at the next start-up.
 */
@Entity()
export class SessionDrainEntity {
  @PrimaryColumn({ type: 'varchar', length: 64, collation: 'C' })
  sessionId!: string;

  @ManyToOne(() => SessionEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'session_id' })
  session?: SessionEntity;

  @Column({ type: 'bigint', transformer: bigintNumber })
  timeStarted!: number;
}
