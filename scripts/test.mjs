// @ts-check
/*
 * `npm test`, which is what CI runs: the tiers in order (test/tiers.js says what each holds), unit first so that a
 * broken parser fails in a minute, then the runs on the embedded PostgreSQL and through the fleet. Prints each run's
 * wall time, and ends with the one line CI reads: `N passed, M failed`. `npm test -- system fleet` runs only those.
 */
import { spawn, spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..');
const jest = join(root, 'node_modules', 'jest', 'bin', 'jest.js');

/** @type {Record<string, string[]>} */
const RUNS = {
  unit: ['--config', 'test/jest.config.js', '--selectProjects', 'unit'],
  integration: ['--config', 'test/jest.config.js', '--selectProjects', 'integration'],
  system: ['--config', 'test/jest.config.js', '--selectProjects', 'system'],
  embedded: ['--config', 'test/jest.embedded.config.js'],
  fleet: ['--config', 'test/jest.fleet.config.js'],
};

const asked = process.argv.slice(2);
for (const name of asked)
  if (!(name in RUNS)) throw new Error(`npm test: no run named ${name} (${Object.keys(RUNS)})`);
const names = asked.length ? asked : Object.keys(RUNS);

const SUMMARY = /^(\d+) passed, (\d+) failed(?:, (\d+) skipped)?$/m;

/** @param {number} ms */
function minutes(ms) {
  const s = Math.round(ms / 1000);
  return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`;
}

/** @typedef {{ name: string, code: number | null, ms: number, passed: number, failed: number, skipped: number }} RunResult */

/**
 * One Jest run; its stdout passes through and is read for the summary reporter's line.
 * @param {string} name
 * @returns {Promise<RunResult>}
 */
function run(name) {
  const started = Date.now();
  process.stdout.write(`\n== ${name}: jest ${RUNS[name].join(' ')}\n`);
  const child = spawn(process.execPath, [jest, ...RUNS[name]], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'inherit'],
    env: {
      ...process.env,
      NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --experimental-vm-modules`.trim(),
      // every file's seconds, for a look at where a run's minutes go (the run prints its slowest files itself)
      OUTPOST_TEST_TIMES: join(tmpdir(), `outpost-test-times-${name}.json`),
    },
  });
  let out = '';
  child.stdout.on('data', (chunk) => {
    out += chunk;
    process.stdout.write(chunk);
  });
  return new Promise((resolve) => {
    child.on('close', (code) => {
      const [, passed = '0', failed = '1', skipped = '0'] = out.match(SUMMARY) ?? [];
      resolve({ name, code, ms: Date.now() - started, passed: +passed, failed: +failed, skipped: +skipped });
    });
  });
}

if (names.some((name) => name !== 'unit')) {
  const build = spawnSync(process.execPath, [join(root, 'scripts', 'build-if-stale.mjs')], {
    stdio: 'inherit',
  });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

/** @type {RunResult[]} */
const results = [];
for (const name of names) {
  const result = await run(name);
  results.push(result);
  process.stdout.write(`== ${name}: ${minutes(result.ms)}, exit ${result.code}\n`);
  if (name === 'unit' && result.code !== 0) break;
}

process.stdout.write('\n== test runs\n');
for (const r of results) {
  const skipped = r.skipped ? `, ${r.skipped} skipped` : '';
  process.stdout.write(
    `   ${r.name.padEnd(12)} ${minutes(r.ms).padStart(7)}  ${r.passed} passed, ${r.failed} failed${skipped}\n`,
  );
}
/** @param {'passed' | 'failed' | 'skipped'} key */
const total = (key) => results.reduce((sum, r) => sum + r[key], 0);
const skipped = total('skipped');
process.stdout.write(
  `\n${total('passed')} passed, ${total('failed')} failed${skipped ? `, ${skipped} skipped` : ''}\n`,
);
process.exit(results.every((r) => r.code === 0) && results.length === names.length ? 0 : 1);
