import 'reflect-metadata';
import { DynamicModule, INestApplication, Type } from '@nestjs/common';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { Test, TestingModuleBuilder } from '@nestjs/testing';
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { AppModule } from '../../src/app.module';
import { configureApp, createHttpAdapter } from '../../src/app.setup';
import { Clock } from '../../src/common/clock';
import { stopEmbeddedDatabase } from '../../src/database/embedded';
import { recordRoutes } from './routes';
import { createTestDatabase } from './test-database';
import { TestClock } from './test-clock';

export const TEST_PASSWORD = 'test-password';

export interface TestApp {
  app: INestApplication;
  /** `http://127.0.0.1:<port>`: the app really listens, so SSE, browsers and other processes can reach it. */
  url: string;
  /** supertest against the app, without credentials. */
  http: ReturnType<typeof request>;
  clock: TestClock;
  dataDir: string;
  databaseUrl?: string;
  close(): Promise<void>;
}

export interface TestAppOptions {
  /** Extra environment for this app (restored after boot). */
  env?: Record<string, string | undefined>;
  /** Reuse a database (a second "server process" on the same data); by default each app gets its own. */
  databaseUrl?: string;
  /** Run on the embedded PostgreSQL of the app's data directory (the default of `npm start`), no DATABASE_URL. */
  embedded?: boolean;
  /** Keep state across a restart by handing the same directory to the next app. */
  dataDir?: string;
  /** Extra modules, e.g. a probe controller that exercises a global pipe or filter. */
  imports?: Array<Type | DynamicModule>;
  /** Swap providers before the app is built. */
  override?: (builder: TestingModuleBuilder) => TestingModuleBuilder;
}

/** Basic credentials for the instance API with the test password. */
export function basic(password = TEST_PASSWORD, user = 'opencode'): string {
  return `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
}

function withEnv<T>(env: Record<string, string | undefined>, work: () => Promise<T>): Promise<T> {
  const saved: Record<string, string | undefined> = {};
  for (const [key, value] of Object.entries(env)) {
    saved[key] = process.env[key];
    if (value === undefined) delete process.env[key];
    else process.env[key] = value;
  }
  return work().finally(() => {
    for (const [key, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
  });
}

/** Boots the whole AppModule on its own database, as `main` does, listening on a free loopback port. */
export async function createTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const ownDatabase = options.databaseUrl || options.embedded ? undefined : await createTestDatabase();
  const databaseUrl = options.databaseUrl ?? ownDatabase?.url;
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'outpost-test-'));
  const clock = new TestClock();
  const env = {
    DATABASE_URL: databaseUrl,
    OUTPOST_DATA_DIR: dataDir,
    OUTPOST_PASSWORD: TEST_PASSWORD,
    OPENCODE_SERVER_PASSWORD: undefined,
    OUTPOST_CONFIG_DIR: join(dataDir, 'config'),
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    // Every test signs people up and starts device sign-ins from 127.0.0.1; the limits have tests of their own.
    OUTPOST_SIGNUPS_PER_HOUR: '1000000',
    OUTPOST_DEVICE_CODES_PER_MINUTE: '1000000',
    HOST: '127.0.0.1',
    PORT: '0',
    ...options.env,
  };
  const app = await withEnv(env, async () => {
    let builder = Test.createTestingModule({ imports: [AppModule.forRoot(), ...(options.imports ?? [])] })
      .overrideProvider(Clock)
      .useValue(clock);
    if (options.override) builder = options.override(builder);
    const moduleRef = await builder.compile();
    const nest = moduleRef.createNestApplication<NestFastifyApplication>(createHttpAdapter(), {
      bodyParser: false,
      logger: false,
    });
    recordRoutes(nest);
    await configureApp(nest);
    await nest.listen(0, '127.0.0.1');
    return nest;
  });
  const { port } = app.getHttpServer().address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;
  return {
    app,
    url,
    http: request(url),
    clock,
    dataDir,
    databaseUrl,
    async close() {
      await app.close();
      if (options.embedded) await stopEmbeddedDatabase(dataDir);
      await ownDatabase?.drop();
      if (!options.dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
