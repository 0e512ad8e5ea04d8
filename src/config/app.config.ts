import { ConfigType, registerAs } from '@nestjs/config';
import { parseAppEnv, parseDatabaseEnv } from './env';

export const appConfig = registerAs('app', () => parseAppEnv(process.env));
export type AppConfig = ConfigType<typeof appConfig>;

export const databaseConfig = registerAs('database', () => parseDatabaseEnv(process.env));
export type DatabaseConfig = ConfigType<typeof databaseConfig>;
