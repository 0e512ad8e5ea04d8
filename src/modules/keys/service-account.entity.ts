import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/** A non-human member of a workspace with its own keys. Removing it sets `deleted_at` and revokes its keys. */
@Entity('service_account')
export class ServiceAccountEntity {
  @PrimaryColumn('varchar', { length: 40 })
  id!: string;

  @Index()
  @Column('varchar', { length: 40 })
  workspaceId!: string;

  @Column('varchar', { length: 200 })
  name!: string;

  @Column('varchar', { length: 40 })
  createdBy!: string;

  @Column('timestamptz')
  createdAt!: Date;

  @Column('timestamptz', { nullable: true })
  deletedAt!: Date | null;
}
