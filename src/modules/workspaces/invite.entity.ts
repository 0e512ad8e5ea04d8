import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import type { Role } from '../console-access/console-principal';

/** An invitation to a workspace for one email address. Only the SHA-256 of its token is stored. */
@Entity('invite')
@Index(['workspaceId', 'email'])
export class InviteEntity {
  @PrimaryColumn('varchar', { length: 40 })
  id!: string;

  @Column('varchar', { length: 40 })
  workspaceId!: string;

  @Column('varchar', { length: 320 })
  email!: string;

  @Column('varchar', { length: 10 })
  role!: Role;

  @Column('char', { length: 64, unique: true })
  tokenHash!: string;

  @Column('varchar', { length: 40 })
  invitedBy!: string;

  @Column('timestamptz')
  createdAt!: Date;

  @Column('timestamptz')
  expiresAt!: Date;

  @Column('timestamptz', { nullable: true })
  acceptedAt!: Date | null;

  @Column('timestamptz', { nullable: true })
  revokedAt!: Date | null;
}
