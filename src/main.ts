import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { Server } from 'node:http';
import { AppModule } from './app.module';
import { configureApp, createHttpAdapter } from './app.setup';
import { ConfigError, parseAppEnv } from './config/env';
import { validateEnv } from './config/validate-env';
import { createLogger, NestPinoLogger } from './logger';

function fail(message: string): never {
  process.stderr.write(`outpost: ${message}\n`);
  process.exit(1);
}

function describeBootError(error: unknown): string {
  if (error instanceof ConfigError) return `invalid configuration: ${error.message}`;
  const code = (error as { code?: string })?.code;
  const message = error instanceof Error ? error.message : String(error);
  if (
    code === 'ECONNREFUSED' ||
    code === 'ENOTFOUND' ||
    code === 'ETIMEDOUT' ||
    /connect|database/i.test(message)
  ) {
    return `cannot start: database unavailable (${code ?? message})`;
  }
  if (code === 'EADDRINUSE') return `cannot start: the port is already in use (${message})`;
  return `cannot start: ${message}`;
}

/** `outpost serve`: validate the environment, start, and stop cleanly on SIGTERM/SIGINT. */
export async function serve(): Promise<void> {
  try {
    validateEnv(process.env);
  } catch (error) {
    fail(describeBootError(error));
  }
  const config = parseAppEnv(process.env);
  const log = createLogger(config.logLevel);
  const logger = new NestPinoLogger(log);
  let app: NestFastifyApplication;
  try {
    // Logs are not buffered: a boot failure (an unreachable database) must be printed, not lost.
    app = await NestFactory.create<NestFastifyApplication>(AppModule.forRoot(), createHttpAdapter(), {
      bodyParser: false,
      logger,
      abortOnError: false,
    });
    await configureApp(app, log);
    await app.listen(config.port, config.host);
  } catch (error) {
    fail(describeBootError(error));
  }
  const server = app.getHttpServer() as Server;
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  logger.log(`Outpost listening on http://${config.host}:${port} (surfaces: ${config.surfaces.join(', ')})`);

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.log(`${signal}: finishing in-flight requests, then stopping`);
    // Long-lived streams (SSE) would hold the server open; past the grace period they are cut.
    const force = setTimeout(() => server.closeAllConnections(), config.shutdownGraceMs);
    force.unref();
    await app.close();
    process.exit(0);
  };
  process.once('SIGTERM', () => void stop('SIGTERM'));
  process.once('SIGINT', () => void stop('SIGINT'));
}

if (require.main === module) void serve();
