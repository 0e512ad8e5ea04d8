/** e2e tests on real PostgreSQL: TEST_DATABASE_URL, a local server on 127.0.0.1:5432, or the embedded one (global-setup.ts). */
const swc = JSON.parse(
  require('node:fs').readFileSync(require('node:path').join(__dirname, '..', '.swcrc'), 'utf8'),
);
delete swc.$schema;

module.exports = {
  rootDir: '..',
  testEnvironment: 'node',
  testMatch: ['<rootDir>/test/**/*.e2e-spec.ts', '<rootDir>/test/**/*.spec.ts', '<rootDir>/src/**/*.spec.ts'],
  transform: { '^.+\\.ts$': ['@swc/jest', { ...swc, swcrc: false }] },
  // `@/…` is src (tsconfig.json's paths): the platform as src imports it, and whatever a test imports from src.
  moduleNameMapper: { '^@/(.*)$': '<rootDir>/src/$1' },
  globalSetup: '<rootDir>/test/helpers/global-setup.ts',
  globalTeardown: '<rootDir>/test/helpers/global-teardown.ts',
  testTimeout: 60_000,
  maxWorkers: 2,
  reporters: ['default', '<rootDir>/test/helpers/summary-reporter.js'],
};
