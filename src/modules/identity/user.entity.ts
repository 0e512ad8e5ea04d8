import { Column, Entity, PrimaryColumn } from 'typeorm';

/** A person who signs in to the console. `email` is stored lower-cased and is unique. */
@Entity('users')
export class UserEntity {
  @PrimaryColumn('varchar', { length: 40 })
  id!: string;

  @Column('varchar', { length: 320, unique: true })
  email!: string;

  @Column('varchar', { length: 200 })
  name!: string;

  /** argon2id (PHC string). */
  @Column('text')
  passwordHash!: string;

  @Column('timestamptz')
  createdAt!: Date;
}
