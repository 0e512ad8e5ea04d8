import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/** A single-use password reset link. Only the SHA-256 of its token is stored. */
@Entity('password_reset')
export class PasswordResetEntity {
  @PrimaryColumn('varchar', { length: 40 })
  id!: string;

  @Index()
  @Column('varchar', { length: 40 })
  userId!: string;

  @Column('char', { length: 64, unique: true })
  tokenHash!: string;

  @Column('timestamptz')
  createdAt!: Date;

  @Column('timestamptz')
  expiresAt!: Date;

  @Column('timestamptz', { nullable: true })
  usedAt!: Date | null;
}
