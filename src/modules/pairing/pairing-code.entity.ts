import { Column, Entity, PrimaryColumn } from 'typeorm';

/** A pairing code: only its SHA-256 is kept; redeemed once, by whichever server process sees it first. */
@Entity('pairing_code')
export class PairingCodeEntity {
  /** SHA-256 of the code, hex. */
  @PrimaryColumn({ type: 'char', length: 64 })
  codeHash: string;

  @Column({ type: 'timestamptz' })
  createdAt: Date;

  @Column({ type: 'timestamptz' })
  expiresAt: Date;

  @Column({ type: 'timestamptz', nullable: true })
  usedAt: Date | null;
}
