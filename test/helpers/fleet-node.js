/**
 * One node of a test fleet (`OUTPOST_TEST_FLEET`, test/helpers/fleet.ts) as its own process: the AppModule built in
 * dist/ (`npm test` builds it first), on the environment it was started with, listening on a free loopback port.
 * Its clock follows the test's: the test's TestClock writes its offset to `OUTPOST_TEST_CLOCK_FILE`, read at every
 * `now()`. It answers the test over IPC: `flush` (write what its usage ledger and request log hold), `unlisten` and
 * `listen` (stop accepting connections and take them again on the same port, as a node going down and coming back)
 * and `close`. It exits when the test's process goes away.
 */
require('reflect-metadata');
const { readFileSync } = require('node:fs');
const { join } = require('node:path');
const { Test } = require('@nestjs/testing');

const dist = join(__dirname, '..', '..', 'dist');
const { AppModule } = require(join(dist, 'app.module'));
const { configureApp, createHttpAdapter } = require(join(dist, 'app.setup'));
const { Clock } = require(join(dist, 'common', 'clock'));
const { UsageLedger } = require(join(dist, 'modules', 'budgets', 'usage-ledger'));
const { RequestLog } = require(join(dist, 'modules', 'budgets', 'request-log'));

class SharedClock extends Clock {
  now() {
    let offset = 0;
    try {
      offset = Number(readFileSync(process.env.OUTPOST_TEST_CLOCK_FILE, 'utf8'));
    } catch {}
    return Date.now() + offset;
  }
}

async function boot() {
  const moduleRef = await Test.createTestingModule({ imports: [AppModule.forRoot()] })
    .overrideProvider(Clock)
    .useValue(new SharedClock())
    .compile();
  const app = moduleRef.createNestApplication(createHttpAdapter(), { bodyParser: false, logger: false });
  await configureApp(app);
  await app.listen(0, '127.0.0.1');
  return app;
}

async function serve(app) {
  const server = app.getHttpServer();
  const { port } = server.address();
  const commands = {
    async flush() {
      await app.get(UsageLedger).flush();
      await app.get(RequestLog).flush();
    },
    unlisten: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
    listen: () => new Promise((resolve) => server.listen(port, '127.0.0.1', () => resolve())),
    close: () => app.close(),
  };
  process.on('message', async ({ id, command }) => {
    try {
      await commands[command]();
      process.send({ id });
    } catch (error) {
      process.send({ id, error: error.message });
    }
    if (command === 'close') process.exit(0);
  });
  process.send({ url: `http://127.0.0.1:${port}` });
}

process.on('disconnect', () => process.exit(1));
boot().then(serve, (error) => {
  process.send({ failed: error.stack ?? String(error) });
  process.exit(1);
});
