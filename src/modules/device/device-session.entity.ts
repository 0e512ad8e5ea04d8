import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * One device sign-in: the family of every access and refresh token issued from one approval. Revoking it
 * (sign-out, or a refresh token presented twice) ends all of them at once.
 */
@Entity('device_session')
export class DeviceSessionEntity {
  @PrimaryColumn('varchar', { length: 40 })
  id!: string;

  @Index()
  @Column('varchar', { length: 40 })
  userId!: string;

  @Column('varchar', { length: 100 })
  clientId!: string;

  /** The workspace the tokens are bound to; null when the client did not ask for one. */
  @Column('varchar', { length: 40, nullable: true })
  workspaceId!: string | null;

  /** The User-Agent that redeemed the code (e.g. `opencode/beta/1.2.3/cli`), for the list of sign-ins. */
  @Column('varchar', { length: 200, nullable: true })
  userAgent!: string | null;

  @Column('timestamptz')
  createdAt!: Date;

  @Column('timestamptz', { nullable: true })
  lastUsedAt!: Date | null;

  /** When the newest refresh token expires; moves forward with every refresh. */
  @Column('timestamptz')
  expiresAt!: Date;

  @Column('timestamptz', { nullable: true })
  revokedAt!: Date | null;
}
