import { Column, Entity, PrimaryColumn } from 'typeorm';

/** The monthly budget of every member without their own; null: unlimited. */
@Entity('workspace_budget')
export class WorkspaceBudgetEntity {
  @PrimaryColumn('varchar', { length: 40 })
  workspaceId!: string;

  @Column('bigint', { nullable: true })
  defaultLimitMicroCents!: string | null;

  @Column('timestamptz')
  updatedAt!: Date;

  @Column('varchar', { length: 40, nullable: true })
  updatedBy!: string | null;
}
