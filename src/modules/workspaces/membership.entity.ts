import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import type { Role } from '../console-access/console-principal';

/** A person's role in a workspace. */
@Entity('membership')
export class MembershipEntity {
  @PrimaryColumn('varchar', { length: 40 })
  workspaceId!: string;

  @Index()
  @PrimaryColumn('varchar', { length: 40 })
  userId!: string;

  @Column('varchar', { length: 10 })
  role!: Role;

  @Column('timestamptz')
  createdAt!: Date;
}
