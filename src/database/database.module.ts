import { Logger, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { appConfig, AppConfig, databaseConfig, DatabaseConfig } from '@/config/app.config';
import { chooseDatabase } from './database-url';
import { dataSourceOptions, describeDatabase } from './data-source.options';
import { runMigrationsLocked } from './migrate';

const logger = new Logger('Database');

/** What the start-up banner says about the database; set once the data source is up. */
export const databaseInUse: { description?: string } = {};

@Module({
  imports: [
    TypeOrmModule.forRootAsync({
      inject: [databaseConfig.KEY, appConfig.KEY],
      useFactory: async (database: DatabaseConfig, app: AppConfig) => {
        const choice = await chooseDatabase(database.url, app.dataDir, (line) => logger.log(line));
        databaseInUse.description = choice.embeddedDir
          ? `embedded PostgreSQL, data in ${choice.embeddedDir}`
          : describeDatabase(choice.url);
        logger.debug(`using ${databaseInUse.description}`);
        return {
          ...dataSourceOptions(choice.url, database.poolMax),
          retryAttempts: database.connectRetries,
          retryDelay: 1_000,
        };
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
