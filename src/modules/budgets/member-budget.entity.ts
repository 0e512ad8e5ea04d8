import { Column, Entity, PrimaryColumn } from 'typeorm';

/** A member's own monthly budget (the "custom" source), overriding the workspace default. */
@Entity('member_budget')
export class MemberBudgetEntity {
  @PrimaryColumn('varchar', { length: 40 })
  workspaceId!: string;

  /** A person (`usr_…`) or a service account (`sa_…`). */
  @PrimaryColumn('varchar', { length: 40 })
  memberId!: string;

  /** Micro-cents (1 USD = 100,000,000). */
  @Column('bigint')
  limitMicroCents!: string;

  @Column('timestamptz')
  updatedAt!: Date;

  @Column('varchar', { length: 40, nullable: true })
  updatedBy!: string | null;
}
