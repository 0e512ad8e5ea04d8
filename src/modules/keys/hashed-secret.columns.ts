import { Column } from 'typeorm';

/** The columns every stored secret credential shares: looked up by public id, checked against an HMAC. */
export abstract class HashedSecretColumns {
  /** The 12 hex digits after the prefix: how a presented key or token is found (one indexed lookup). */
  @Column('char', { length: 12, unique: true })
  publicId!: string;

  @Column('char', { length: 64 })
  secretHash!: string;

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
