import { Column, Entity, PrimaryColumn } from 'typeorm';

/** Failed sign-ins in the current window, per `address:<ip>` and per `account:<email>`, shared by every process. */
@Entity('login_throttle')
export class LoginThrottleEntity {
  @PrimaryColumn('varchar', { length: 400 })
  key!: string;

  @Column('timestamptz')
  windowStart!: Date;

  @Column('int')
  failures!: number;
}
