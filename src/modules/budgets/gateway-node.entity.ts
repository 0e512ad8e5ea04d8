import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * A running gateway process and its lease: it renews `heartbeatAt` while it lives. The budget holds of a process
 * that stopped renewing are released by any live one (HoldLease).
 */
@Entity('gateway_node')
export class GatewayNodeEntity {
  @PrimaryColumn('varchar', { length: 40 })
  id!: string;

  @Column('timestamptz')
  startedAt!: Date;

  @Column('timestamptz')
  heartbeatAt!: Date;
}
