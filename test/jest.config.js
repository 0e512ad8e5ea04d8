/**
 * The test tiers (test/tiers.js says what runs where): unit specs beside the code, no database; integration and
 * system on real PostgreSQL (TEST_DATABASE_URL, a local server on 127.0.0.1:5432, or the embedded one:
 * global-setup.ts), which Jest sets up only when a test of theirs runs. `--selectProjects unit|integration|system`.
 */
const { SYSTEM, e2e } = require('./tiers');

const { join } = require('node:path');
const root = join(__dirname, '..');

const swc = JSON.parse(require('node:fs').readFileSync(join(root, '.swcrc'), 'utf8'));
delete swc.$schema;

const base = {
  rootDir: root,
  testEnvironment: 'node',
  transform: { '^.+\\.ts$': ['@swc/jest', { ...swc, swcrc: false }] },
  // `@/…` is src (tsconfig.json's paths): the platform as src imports it, and whatever a test imports from src.
  moduleNameMapper: { '^@/(.*)$': '<rootDir>/src/$1' },
};

/** The database: picked and migrated once per run, cloned per test file. */
const postgres = {
  globalSetup: '<rootDir>/test/helpers/global-setup.ts',
  globalTeardown: '<rootDir>/test/helpers/global-teardown.ts',
};

const projects = [
  { ...base, displayName: 'unit', testMatch: ['<rootDir>/src/**/*.spec.ts', '<rootDir>/test/*.spec.ts'] },
  {
    ...base,
    ...postgres,
    displayName: 'integration',
    testMatch: ['**/test/e2e/**/*.e2e-spec.ts', ...e2e(SYSTEM).map((glob) => `!${glob}`)],
  },
  { ...base, ...postgres, displayName: 'system', testMatch: e2e(SYSTEM) },
];

module.exports = {
  rootDir: root,
  projects,
  testTimeout: 60_000,
  testSequencer: '<rootDir>/test/helpers/slow-first-sequencer.js',
  maxWorkers: 2,
  reporters: ['default', '<rootDir>/test/helpers/summary-reporter.js'],
};
