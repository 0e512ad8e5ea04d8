import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

export const AUTHORIZATION_STATES = ['pending', 'approved', 'denied', 'redeemed'] as const;
export type AuthorizationState = (typeof AUTHORIZATION_STATES)[number];

/**
 * One device sign-in request (RFC 8628): the device code (stored as its SHA-256), the user code the person
 * types or compares, and what the person decided. Redeemed exactly once by an atomic UPDATE.
 */
@Entity('device_authorization')
// At most one pending request per user code; a collision at creation draws another code.
@Index('uq_device_authorization_pending_user_code', ['userCodeHash'], {
  unique: true,
  where: `"status" = 'pending'`,
})
export class DeviceAuthorizationEntity {
  @PrimaryColumn('varchar', { length: 40 })
  id!: string;

  @Column('char', { length: 64, unique: true })
  deviceCodeHash!: string;

  /**
   * The keyed hash (HMAC-SHA-256 with the server pepper) of the user code, 8 letters of `BCDFGHJKLMNPQRSTVWXZ`
   * without the hyphen: the code itself is a secret for its ten minutes and is never stored.
   */
  @Column('char', { length: 64 })
  userCodeHash!: string;

  @Column('varchar', { length: 100 })
  clientId!: string;

  /** The client asked for a token bound to a workspace the person picks. */
  @Column('boolean')
  supportsOrgScope!: boolean;

  @Column('varchar', { length: 20 })
  status!: AuthorizationState;

  /** Seconds the client must wait between polls; grows by 5 with every `slow_down`. */
  @Column('int')
  pollInterval!: number;

  @Column('timestamptz', { nullable: true })
  lastPolledAt!: Date | null;

  @Column('timestamptz')
  createdAt!: Date;

  @Index()
  @Column('timestamptz')
  expiresAt!: Date;

  /** The person who approved or denied. */
  @Column('varchar', { length: 40, nullable: true })
  userId!: string | null;

  /** The workspace picked on approval (only when the client asked for one). */
  @Column('varchar', { length: 40, nullable: true })
  workspaceId!: string | null;

  @Column('timestamptz', { nullable: true })
  decidedAt!: Date | null;
}
