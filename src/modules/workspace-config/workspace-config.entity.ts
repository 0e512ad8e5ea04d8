import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { ConfigDocument } from './config-document';

/**
 * A workspace's config. `rendered` is the exact body clients get and `etag` its hash, both written with the
 * change, so a poll costs one primary-key lookup and a 304 reads no document at all.
 */
@Entity('workspace_config')
export class WorkspaceConfigEntity {
  @PrimaryColumn('varchar', { length: 40 })
  workspaceId!: string;

  @Column('jsonb')
  document!: ConfigDocument;

  @Column('text')
  rendered!: string;

  @Column('varchar', { length: 64 })
  etag!: string;

  @Column('timestamptz')
  updatedAt!: Date;

  /** The person or service account of the last change. */
  @Column('varchar', { length: 40, nullable: true })
  updatedBy!: string | null;
}
