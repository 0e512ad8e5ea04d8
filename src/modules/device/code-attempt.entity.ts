import { Column, Entity, PrimaryColumn } from 'typeorm';

/** Wrong user codes a person entered in the current minute, shared by every server process. */
@Entity('device_code_attempt')
export class CodeAttemptEntity {
  @PrimaryColumn('varchar', { length: 40 })
  userId!: string;

  @Column('timestamptz')
  windowStart!: Date;

  @Column('int')
  failures!: number;
}
