import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/** One change in a workspace: who (actor), what (action), to what (target), when, from where. */
@Entity('audit_entry')
@Index(['workspaceId', 'id'])
export class AuditEntryEntity {
  /** `aud_…` (ascendingId): ascending, so "newest first" is `ORDER BY id DESC`. */
  @PrimaryColumn('varchar', { length: 40 })
  id!: string;

  /** Null for changes that belong to a person rather than a workspace (user tokens). */
  @Column('varchar', { length: 40, nullable: true })
  workspaceId!: string | null;

  @Column('varchar', { length: 20 })
  actorType!: 'user' | 'service_account' | 'system';

  @Column('varchar', { length: 40, nullable: true })
  actorId!: string | null;

  @Column('varchar', { length: 60 })
  action!: string;

  @Column('varchar', { length: 30 })
  targetType!: string;

  @Column('varchar', { length: 40 })
  targetId!: string;

  @Column('jsonb', { default: {} })
  details!: Record<string, unknown>;

  @Column('varchar', { length: 64, nullable: true })
  sourceAddress!: string | null;

  @Column('timestamptz')
  createdAt!: Date;
}
