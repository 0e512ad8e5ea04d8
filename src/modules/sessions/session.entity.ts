import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { bigintNumber } from './bigint.transformer';
import { ModelRef, Ruleset, SessionFork, SessionOutcome } from './session.types';

/**
 * A session. The list pages by keyset on `(time_updated, id)`: every filter the list serves has an index
 * ending in those two columns, so page N costs what page 1 does. Ids use the "C" collation (byte order,
 * as opencode compares them).
 */
@Entity()
@Index('session_updated_idx', ['timeUpdated', 'id'])
@Index('session_root_updated_idx', ['timeUpdated', 'id'], { where: 'parent_id IS NULL' })
@Index('session_parent_updated_idx', ['parentId', 'timeUpdated', 'id'])
@Index('session_directory_updated_idx', ['directory', 'timeUpdated', 'id'])
@Index('session_project_updated_idx', ['projectId', 'timeUpdated', 'id'])
export class SessionEntity {
  @PrimaryColumn({ type: 'varchar', length: 64, collation: 'C' })
  id!: string;

  @Column({ type: 'varchar', length: 64, collation: 'C', nullable: true })
  parentId!: string | null;

  /** Deleting a session deletes its children (and, through them, their messages). */
  @ManyToOne(() => SessionEntity, { onDelete: 'CASCADE', nullable: true, createForeignKeyConstraints: true })
  @JoinColumn({ name: 'parent_id' })
  parent?: SessionEntity | null;

  @Column({ type: 'jsonb', nullable: true })
  fork!: SessionFork | null;

  @Column({ type: 'varchar', length: 200 })
  projectId!: string;

  @Column({ type: 'text' })
  directory!: string;

  /** The directory relative to the project root; '' at the root. */
  @Column({ type: 'text', default: '' })
  subpath!: string;

  @Column({ type: 'varchar', length: 200, nullable: true })
  agent!: string | null;

  @Column({ type: 'jsonb', nullable: true })
  model!: ModelRef | null;

  @Column({ type: 'text' })
  title!: string;

  @Column({ type: 'jsonb', nullable: true })
  metadata!: Record<string, unknown> | null;

  @Column({ type: 'jsonb', nullable: true })
  permissions!: Ruleset | null;

  /** A staged revert (`SessionRevert`), null when none. */
  @Column({ type: 'jsonb', nullable: true })
  revert!: Record<string, unknown> | null;

  /** Micro-cents (1 USD = 100,000,000). */
  @Column({ type: 'bigint', default: 0, transformer: bigintNumber })
  cost!: number;

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

  @Column({ type: 'varchar', length: 20, nullable: true })
  outcome!: SessionOutcome | null;

  /** Epoch milliseconds, as the API shows them. */
  @Column({ type: 'bigint', transformer: bigintNumber })
  timeCreated!: number;

  @Column({ type: 'bigint', transformer: bigintNumber })
  timeUpdated!: number;

  @Column({ type: 'bigint', nullable: true, transformer: bigintNumber })
  timeIdle!: number | null;

  @Column({ type: 'bigint', nullable: true, transformer: bigintNumber })
  timeViewed!: number | null;

  @Column({ type: 'bigint', nullable: true, transformer: bigintNumber })
  timeArchived!: number | null;

  /**
   * The row as the API's `Session.Info` JSON. The database renders it (trigger `session_info_render`, migration
   * SessionInfo) on every insert and update, whoever writes; reads send it as it is.
   */
  @Column({ type: 'text', insert: false, update: false })
  info!: string;
}
