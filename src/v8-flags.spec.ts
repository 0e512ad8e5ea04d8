import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { V8_FLAGS } from './v8-flags';

/**
 * A process that keeps what one allocation site makes, long enough for V8 to pretenure that site, then counts the
 * young collections while the site makes as much again: pretenured objects are born old and need none.
 */
const PROBE = `
  const flags = JSON.parse(process.argv[1]);
  for (const flag of flags) require('node:v8').setFlagsFromString(flag);
  const { PerformanceObserver, constants } = require('node:perf_hooks');
  let young = 0;
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) if (entry.detail.kind === constants.NODE_PERFORMANCE_GC_MINOR) young++;
  }).observe({ entryTypes: ['gc'] });
  const batch = () => Array.from({ length: 200000 }, (_, i) => ({ a: i, b: i + 1 }));
  const kept = [];
  for (let round = 0; round < 8; round++) kept.push(batch());
  setTimeout(() => {
    const before = young;
    for (let round = 0; round < 8; round++) kept.push(batch());
    setTimeout(() => console.log(young - before), 50);
  }, 50);
`;

const youngCollections = (flags: string[]) =>
  Number(execFileSync(process.execPath, ['-e', PROBE, JSON.stringify(flags)], { encoding: 'utf8' }).trim());

describe('V8 flags', () => {
  it('turn allocation-site pretenuring off: objects that die young are born young', () => {
    const withDefaults = youngCollections([]);
    const withOurs = youngCollections(V8_FLAGS);
    // Pretenured, the second half is born old (3 young collections on node 20); not, it is born young (8).
    expect(withOurs).toBeGreaterThan(withDefaults);
    expect(withOurs).toBeGreaterThanOrEqual(withDefaults * 2);
  });

  it('are set by the server before anything else loads', () => {
    const main = readFileSync(join(__dirname, 'main.ts'), 'utf8');
    expect(main.split('\n')[0]).toMatch(/^import '\.\/v8-flags';/);
  });
});
