import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import type { Permission } from './access/console-principal';

/**
 * A console API key, bound to one workspace: a service account's (`service_account_id`) or a person's
 * own (`user_id`). Only the public id and an HMAC of the secret are stored.
 */
@Entity('api_key')
@Index(['workspaceId', 'userId'])
export class ApiKeyEntity {
  @PrimaryColumn('varchar', { length: 40 })
  id!: string;

  /** The 12 hex digits after `oc_sk_`: how a presented key is found (one indexed lookup). */
  @Column('char', { length: 12, unique: true })
  publicId!: string;

  @Column('char', { length: 64 })
  secretHash!: string;

  @Column('varchar', { length: 40 })
  workspaceId!: string;

  @Index()
  @Column('varchar', { length: 40, nullable: true })
  serviceAccountId!: string | null;

  @Column('varchar', { length: 40, nullable: true })
  userId!: string | null;

  @Column('varchar', { length: 200 })
  name!: string;

  @Column('varchar', { length: 10 })
  permission!: Permission;

  @Column('char', { length: 4 })
  last4!: string;

  @Column('varchar', { length: 40 })
  createdBy!: string;

  @Column('timestamptz')
  createdAt!: Date;

  @Column('timestamptz', { nullable: true })
  expiresAt!: Date | null;

  @Column('timestamptz', { nullable: true })
  revokedAt!: Date | null;

  @Column('timestamptz', { nullable: true })
  lastUsedAt!: Date | null;
}
