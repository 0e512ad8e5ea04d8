import { Global, Module } from '@nestjs/common';
import { getDataSourceToken } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { appConfig, AppConfig } from '@/config/app.config';
import { PostgresRateLimitStore } from './postgres-rate-limit.store';
import { RATE_LIMIT_STORE } from './rate-limit.store';
import { RateLimiter } from './rate-limiter';
import { RedisRateLimitStore } from './redis-rate-limit.store';

/** The shared rate limits: in PostgreSQL, or in Redis when `REDIS_URL` is set. */
@Global()
@Module({
  providers: [
    {
      provide: RATE_LIMIT_STORE,
      inject: [getDataSourceToken(), appConfig.KEY],
      useFactory: (db: DataSource, app: AppConfig) =>
        app.redisUrl ? new RedisRateLimitStore(app.redisUrl) : new PostgresRateLimitStore(db),
    },
    RateLimiter,
  ],
  exports: [RateLimiter],
})
export class RateLimitModule {}
