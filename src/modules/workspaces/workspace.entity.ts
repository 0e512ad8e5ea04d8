import { Column, Entity, PrimaryColumn } from 'typeorm';

/** A workspace (`org_<ulid>`). Deleting one sets `deleted_at`; its id then answers 404. */
@Entity('workspace')
export class WorkspaceEntity {
  @PrimaryColumn('varchar', { length: 40 })
  id!: string;

  @Column('varchar', { length: 200 })
  name!: string;

  @Column('timestamptz')
  createdAt!: Date;

  @Column('timestamptz', { nullable: true })
  deletedAt!: Date | null;
}
