import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * What a member spent in `month` (the first day of a UTC calendar month), kept up to date by the same statement
 * that records each usage row, so reading budgets never sums the usage table. A key's spend is kept here too, under
 * its `key_…` id, for the key's own budget (KeyBudgets).
 */
@Entity('member_spend')
export class MemberSpendEntity {
  @PrimaryColumn('varchar', { length: 40 })
  workspaceId!: string;

  @PrimaryColumn('varchar', { length: 40 })
  memberId!: string;

  @Column('date')
  month!: string;

  @Column('bigint')
  spentMicroCents!: string;

  /** Worst-case costs of gateway requests in flight, held against the limit until they settle. */
  @Column('bigint', { default: 0 })
  heldMicroCents!: string;
}
