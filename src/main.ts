import './v8-flags'; // first: V8 flags apply to what is allocated after them
import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { Server, ServerResponse } from 'node:http';
import { AppModule } from './app.module';
import { configureApp, createHttpAdapter } from './app.setup';
import { ConfigError, parseAppEnv, parseDatabaseEnv } from './config/env';
import { validateEnv } from './config/validate-env';
import { NewerSchemaError } from './database/migrate';
import { databaseInUse } from './database/database.module';
import {
  DataFolderInUseError,
  embeddedDatabaseUrl,
  setEmbeddedRole,
  stopEmbeddedDatabase,
} from './database/embedded';
import { createLogger, NestPinoLogger, readByPeople } from './logger';
import { keepServingOnUnhandledRejection } from './common/errors/last-resort';
import { SecretKeyMismatchError } from './modules/console-access/console-access.errors';
import { ServerPasswordService } from './modules/instance-auth/server-password.service';
import { BannerFacts, startupBanner, startupRecord } from './startup-banner';
import { parseIdentityEnv } from './modules/identity/identity.config';
import { Readiness } from './modules/health/readiness';

async function fail(message: string): Promise<never> {
  process.stderr.write(`outpost: ${message}\n`);
  await stopEmbeddedDatabase().catch(() => undefined);
  process.exit(1);
}

function describeBootError(error: unknown): string {
  if (error instanceof ConfigError) return `invalid configuration: ${error.message}`;
  if (
    error instanceof DataFolderInUseError ||
    error instanceof NewerSchemaError ||
    error instanceof SecretKeyMismatchError
  )
    return `cannot start: ${error.message}`;
  const code = (error as { code?: string })?.code;
  const message = error instanceof Error ? error.message : String(error);
  if (code === '3D000') return `cannot start: ${message} (create it, or fix DATABASE_URL)`;
  if (code === '28P01' || code === '28000')
    return `cannot start: the database refused the login (${message})`;
  if (
    code === 'ECONNREFUSED' ||
    code === 'ENOTFOUND' ||
    code === 'ETIMEDOUT' ||
    /connect|database/i.test(message)
  ) {
    return `cannot start: database unavailable (${code ?? message})`;
  }
  return `cannot start: ${message}`;
}

function describeListenError(error: unknown, host: string): string {
  const code = (error as { code?: string })?.code;
  if (code === 'EADDRINUSE') return `cannot start: the port is already in use (${(error as Error).message})`;
  if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'EINVAL') {
    return `invalid configuration: HOST "${host}" is not an address of this machine (${code})`;
  }
  if (code === 'EACCES') return `cannot start: no permission to listen there (${(error as Error).message})`;
  return describeBootError(error);
}

/** `outpost serve`: validate the environment, start, and stop cleanly on SIGTERM/SIGINT. */
export async function serve(): Promise<void> {
  try {
    validateEnv(process.env);
  } catch (error) {
    return fail(describeBootError(error));
  }
  setEmbeddedRole('server');
  const config = parseAppEnv(process.env);
  const log = createLogger(config.logLevel, config.logFormat);
  const logger = new NestPinoLogger(log);
  keepServingOnUnhandledRejection(log);
  let app: NestFastifyApplication;
  try {
    // The embedded database first: a data folder another server uses stops here, in one line.
    if (!parseDatabaseEnv(process.env).url)
      await embeddedDatabaseUrl(config.dataDir, (line) => log.info(line));
    // Logs are not buffered: a boot failure (an unreachable database) must be printed, not lost.
    app = await NestFactory.create<NestFastifyApplication>(AppModule.forRoot(), createHttpAdapter(), {
      bodyParser: false,
      logger,
      abortOnError: false,
    });
    await configureApp(app, log);
    // The modules' start-up checks (the secret key's fingerprint) fail here, in one line, before anything listens.
    await app.init();
  } catch (error) {
    return fail(describeBootError(error));
  }
  try {
    await app.listen(config.port, config.host);
  } catch (error) {
    await app.close().catch(() => undefined);
    return fail(describeListenError(error, config.host));
  }
  const server = app.getHttpServer() as Server;
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  log.info({ port, surfaces: config.surfaces }, 'Outpost listening');
  const facts: BannerFacts = {
    host: config.host,
    port,
    surfaces: config.surfaces,
    database: databaseInUse.description,
    signup: parseIdentityEnv(process.env).signup,
    newPassword: config.surfaces.includes('instance') ? app.get(ServerPasswordService).generated : undefined,
    password: config.surfaces.includes('instance')
      ? { user: app.get(ServerPasswordService).username, source: app.get(ServerPasswordService).source }
      : undefined,
  };
  // With JSON logs the banner is one more record among them (a collector parses every line), written at
  // LOG_LEVEL=warn too, as the readable banner is; LOG_LEVEL=silent means no line at all.
  if (readByPeople(log))
    process.stderr.write(startupBanner(facts, { showPassword: process.stderr.isTTY === true }));
  else {
    const { fields, msg } = startupRecord(facts);
    const bannerLog =
      log.isLevelEnabled('info') || log.level === 'silent' ? log : log.child({}, { level: 'info' });
    bannerLog.info(fields, msg);
  }

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    // Not ready first: a load balancer polling /health/ready moves away while this process still serves.
    app.get(Readiness).draining = true;
    // Every answer from now on closes its connection, so the balancer keeps none to this process: when it stops
    // accepting, a balancer's next request finds the port closed (and safely tries another node) instead of being
    // sent on a kept-alive connection this process is closing (a POST then fails: it may not be replayed).
    server.prependListener('request', (_request, response: ServerResponse) => {
      response.shouldKeepAlive = false;
    });
    // The connections idle now are closed now, while the port is open (a balancer's next request opens another).
    // When the port closes, none is cut as idle: one the balancer opened a moment before may carry a request node
    // has not read yet, and resetting it would fail a model call the balancer may not replay. Each closes after
    // its answer; one left idle is dropped by its client (a balancer's keep-alive timeout is below the drain
    // delay) or cut after OUTPOST_SHUTDOWN_GRACE_MS.
    server.closeIdleConnections();
    server.closeIdleConnections = () => undefined;
    if (config.drainDelayMs > 0) {
      logger.log(
        `${signal}: not ready; serving ${config.drainDelayMs} ms more while the load balancer moves away`,
      );
      await new Promise((resolve) => setTimeout(resolve, config.drainDelayMs));
    }
    logger.log(`${signal}: finishing in-flight requests, then stopping`);
    // Long-lived streams (SSE) would hold the server open; past the grace period they are cut.
    const force = setTimeout(() => server.closeAllConnections(), config.shutdownGraceMs);
    force.unref();
    await app.close();
    await stopEmbeddedDatabase();
    process.exit(0);
  };
  process.once('SIGTERM', () => void stop('SIGTERM'));
  process.once('SIGINT', () => void stop('SIGINT'));
}

if (require.main === module) void serve();
