import { Column, Entity, PrimaryColumn } from 'typeorm';

/** A session token issued by pairing: only its SHA-256 is kept, with the password it was issued under. */
@Entity('instance_session_token')
export class SessionTokenEntity {
  /** SHA-256 of the token, hex. */
  @PrimaryColumn({ type: 'char', length: 64 })
  tokenHash: string;

  /** HMAC of the server password at issue time: a new password revokes every older token. */
  @Column({ type: 'char', length: 64 })
  passwordFingerprint: string;

  @Column({ type: 'timestamptz' })
  createdAt: Date;

  @Column({ type: 'timestamptz' })
  expiresAt: Date;

  @Column({ type: 'timestamptz', nullable: true })
  lastUsedAt: Date | null;
}
