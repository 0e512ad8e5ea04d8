import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * What one gateway process holds against a member's (and the workspace's) budget for calls in flight: the same
 * amounts `member_spend` and `workspace_spend` hold, kept per process so a process that dies can be given back.
 */
@Entity('budget_hold')
export class BudgetHoldEntity {
  @PrimaryColumn('varchar', { length: 40 })
  nodeId!: string;

  @PrimaryColumn('varchar', { length: 40 })
  workspaceId!: string;

  @PrimaryColumn('varchar', { length: 40 })
  memberId!: string;

  @Column('date')
  month!: string;

  @Column('bigint', { default: 0 })
  memberHeldMicroCents!: string;

  @Column('bigint', { default: 0 })
  workspaceHeldMicroCents!: string;
}
