import 'reflect-metadata';
import { DynamicModule, INestApplication, Type } from '@nestjs/common';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { Test, TestingModuleBuilder } from '@nestjs/testing';
import type { AddressInfo } from 'node:net';
import { AppModule } from '../../src/app.module';
import { configureApp, createHttpAdapter } from '../../src/app.setup';
import { Clock } from '../../src/common/clock';
import { recordRoutes } from './routes';
import { TestClock } from './test-clock';

export interface NodeOptions {
  /** Extra modules, e.g. a probe controller that exercises a global pipe or filter. */
  imports?: Array<Type | DynamicModule>;
  /** Swap providers before the app is built. */
  override?: (builder: TestingModuleBuilder) => TestingModuleBuilder;
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

/** One node: the AppModule on the environment given (restored after boot), listening on a free loopback port. */
export function bootNode(
  env: Record<string, string | undefined>,
  clock: TestClock,
  options: NodeOptions,
): Promise<INestApplication> {
  return withEnv(env, async () => {
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
    try {
      await nest.listen(0, '127.0.0.1');
    } catch (error) {
      // A node refused at start (e.g. another secret key than the database's) leaves no connection behind.
      await nest.close().catch(() => undefined);
      throw error;
    }
    return nest;
  });
}

export function addressOf(app: INestApplication): string {
  const { port } = app.getHttpServer().address() as AddressInfo;
  return `http://127.0.0.1:${port}`;
}
