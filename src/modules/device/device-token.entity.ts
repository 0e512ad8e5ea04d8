import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

export type DeviceTokenKind = 'access' | 'refresh';

/**
 * An access (`oc_at_…`) or refresh (`oc_rt_…`) token of a device sign-in, stored as an HMAC. A used refresh
 * token is kept (with `used_at`) so that presenting it again is recognised as theft.
 */
@Entity('device_token')
export class DeviceTokenEntity {
  @PrimaryColumn('varchar', { length: 40 })
  id!: string;

  @Index()
  @Column('varchar', { length: 40 })
  sessionId!: string;

  @Column('varchar', { length: 10 })
  kind!: DeviceTokenKind;

  @Column('char', { length: 64, unique: true })
  tokenHash!: string;

  @Column('timestamptz')
  createdAt!: Date;

  @Column('timestamptz')
  expiresAt!: Date;

  @Column('timestamptz', { nullable: true })
  usedAt!: Date | null;
}
