import { pgPool } from '@/database/pool-query';
import { Module, OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { liveGauge, startDefaultMetrics } from '@/common/metrics/metrics';
import { MetricsController } from './metrics.controller';

/** `/metrics`, and the gauges of what every surface shares: the process and the database pool. */
@Module({ controllers: [MetricsController] })
export class MetricsModule implements OnModuleInit {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  onModuleInit(): void {
    startDefaultMetrics();
    const pool = () => pgPool(this.db);
    liveGauge('outpost_db_pool_connections', 'Connections of the database pool.', () => pool().totalCount);
    liveGauge('outpost_db_pool_idle', 'Idle connections of the database pool.', () => pool().idleCount);
    liveGauge(
      'outpost_db_pool_waiting',
      'Queries waiting for a connection of the pool.',
      () => pool().waitingCount,
    );
  }
}
