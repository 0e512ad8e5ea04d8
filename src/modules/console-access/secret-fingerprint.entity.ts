import { Check, Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * The one row that says which secret key (`OUTPOST_SECRET_KEY` or the generated file) this database's hashes and
 * encrypted credentials were made with: not the secret, a value derived from it (HKDF-SHA-256 with its own `info`).
 * A node whose secret gives another value refuses to start (SecretFingerprint).
 */
@Entity('secret_fingerprint')
@Check('"id" = 1')
export class SecretFingerprintEntity {
  /** Always 1: one row per database. */
  @PrimaryColumn('smallint')
  id!: number;

  /** Hex of the 32 bytes derived from the secret. */
  @Column('varchar', { length: 64 })
  fingerprint!: string;

  /** When it was first stored, or last replaced by a rotation. */
  @Column('timestamptz')
  updatedAt!: Date;
}
