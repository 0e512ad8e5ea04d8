import { Column, Entity, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { bigintNumber } from '../sessions/bigint.transformer';
import { SessionEntity } from '../sessions/session.entity';

/**
 * A drain that is running, and which process runs it. The row lives while the drain runs: inserting it is the
 * claim (the primary key lets one drain per session in, whatever the process), and its owner extends
 * `lease_expires` while it runs. A row whose lease has passed belongs to a process that died or stalled: any
 * process may then take it over and close the drain as interrupted.
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

  /** The process that runs the drain (an id it takes at start). */
  @Column({ type: 'varchar', length: 64, collation: 'C' })
  owner!: string;

  /** Epoch ms, by the owner's clock: until then no other process may take the drain over. */
  @Column({ type: 'bigint', transformer: bigintNumber })
  leaseExpires!: number;
}
