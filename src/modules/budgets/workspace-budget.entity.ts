import { Column, Entity, PrimaryColumn } from 'typeorm';

/** The workspace's budgets: the default of every member without their own, and the whole workspace's. */
@Entity('workspace_budget')
export class WorkspaceBudgetEntity {
  @PrimaryColumn('varchar', { length: 40 })
  workspaceId!: string;

  /** Each member's monthly budget unless they have their own; null: unlimited. */
  @Column('bigint', { nullable: true })
  defaultLimitMicroCents!: string | null;

  /** What the whole workspace may spend a month, all members together; null: unlimited. */
  @Column('bigint', { nullable: true })
  monthlyLimitMicroCents!: string | null;

  @Column('timestamptz')
  updatedAt!: Date;

  @Column('varchar', { length: 40, nullable: true })
  updatedBy!: string | null;
}
