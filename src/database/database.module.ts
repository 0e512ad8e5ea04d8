import { Logger, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { appConfig, AppConfig, databaseConfig, DatabaseConfig } from '../config/app.config';
import { dataSourceOptions, DatabaseTarget, describeTarget } from './data-source.options';
import { runMigrationsLocked } from './migrate';

export function databaseTarget(database: DatabaseConfig, app: AppConfig): DatabaseTarget {
  return database.url ? { url: database.url } : { pgliteDir: join(app.dataDir, 'pgdata') };
}

const logger = new Logger('Database');

@Module({
  imports: [
    TypeOrmModule.forRootAsync({
      inject: [databaseConfig.KEY, appConfig.KEY],
      useFactory: (database: DatabaseConfig, app: AppConfig) => {
        const target = databaseTarget(database, app);
        logger.log(`using ${describeTarget(target)}`);
        return { ...dataSourceOptions(target), retryAttempts: database.connectRetries, retryDelay: 1_000 };
      },
      dataSourceFactory: async (options) => {
        const dataSource = await new DataSource(options!).initialize();
        const ran = await runMigrationsLocked(dataSource);
        logger.log(ran.length ? `ran migrations: ${ran.join(', ')}` : 'schema is up to date');
        return dataSource;
      },
    }),
  ],
})
export class DatabaseModule {}
