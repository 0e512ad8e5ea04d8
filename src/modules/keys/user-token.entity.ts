import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/** A token that acts as a person (`oc_ut_…`), in the workspace named by `x-org-id`. Stored as an HMAC. */
@Entity('user_token')
export class UserTokenEntity {
  @PrimaryColumn('varchar', { length: 40 })
  id!: string;

  @Column('char', { length: 12, unique: true })
  publicId!: string;

  @Column('char', { length: 64 })
  secretHash!: string;

  @Index()
  @Column('varchar', { length: 40 })
  userId!: string;

  @Column('varchar', { length: 200 })
  name!: string;

  @Column('char', { length: 4 })
  last4!: string;

  @Column('timestamptz')
  createdAt!: Date;

  @Column('timestamptz', { nullable: true })
  expiresAt!: Date | null;

  @Column('timestamptz', { nullable: true })
  revokedAt!: Date | null;

  @Column('timestamptz', { nullable: true })
  lastUsedAt!: Date | null;
}
