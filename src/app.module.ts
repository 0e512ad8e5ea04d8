import { DynamicModule, Module } from '@nestjs/common';
import { ConfigModule } from '@nestjs/config';
import { APP_FILTER, APP_GUARD, APP_PIPE } from '@nestjs/core';
import { EventEmitterModule } from '@nestjs/event-emitter';
import { CommonModule } from './common/common.module';
import { OutboundModule } from './common/net/outbound.module';
import { CredentialsGuard } from './common/auth';
import { ErrorFilter } from './common/errors/error.filter';
import { RequestValidationPipe } from './common/http/validation.pipe';
import { appConfig, databaseConfig } from './config/app.config';
import { parseAppEnv } from './config/env';
import { RateLimitModule } from './common/rate-limit/rate-limit.module';
import { DatabaseServicesModule } from './database/database-services.module';
import { DatabaseModule } from './database/database.module';
import { HealthModule } from './modules/health/health.module';
import { MetricsModule } from './modules/metrics/metrics.module';
import { HomeModule } from './modules/home/home.module';
import { SURFACE_MODULES } from './surfaces';

@Module({})
export class AppModule {
  /** The whole application, with the surfaces named by `OUTPOST_SURFACES`. */
  static forRoot(): DynamicModule {
    const { surfaces } = parseAppEnv(process.env);
    return {
      module: AppModule,
      imports: [
        ConfigModule.forRoot({ isGlobal: true, ignoreEnvFile: true, load: [appConfig, databaseConfig] }),
        EventEmitterModule.forRoot({ wildcard: false, maxListeners: 0 }),
        CommonModule,
        OutboundModule,
        DatabaseModule,
        DatabaseServicesModule,
        RateLimitModule,
        HealthModule,
        MetricsModule,
        HomeModule,
        ...surfaces.flatMap((surface) => SURFACE_MODULES[surface]),
      ],
      providers: [
        { provide: APP_GUARD, useClass: CredentialsGuard },
        { provide: APP_PIPE, useClass: RequestValidationPipe },
        { provide: APP_FILTER, useClass: ErrorFilter },
      ],
    };
  }
}
