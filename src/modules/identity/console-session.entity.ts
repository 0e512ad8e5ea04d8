import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/** A sign-in (the console cookie). Only the SHA-256 of the cookie value is stored. */
@Entity('console_session')
export class ConsoleSessionEntity {
  @PrimaryColumn('varchar', { length: 40 })
  id!: string;

  @Column('char', { length: 64, unique: true })
  tokenHash!: string;

  @Index()
  @Column('varchar', { length: 40 })
  userId!: string;

  @Column('timestamptz')
  createdAt!: Date;

  @Column('timestamptz')
  expiresAt!: Date;
}
