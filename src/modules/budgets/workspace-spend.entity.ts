import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * What the whole workspace spent through the gateway in `month` (first day of a UTC month), and the worst
 * cases held against its monthly limit while requests are out. Written by the usage batches.
 */
@Entity('workspace_spend')
export class WorkspaceSpendEntity {
  @PrimaryColumn('varchar', { length: 40 })
  workspaceId!: string;

  @Column('date')
  month!: string;

  @Column('bigint', { default: 0 })
  spentMicroCents!: string;

  @Column('bigint', { default: 0 })
  heldMicroCents!: string;
}
