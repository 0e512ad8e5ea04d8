import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { LAUNCH_FLAGS, V8_FLAGS } from './v8-flags';

/**
 * A process that keeps what one allocation site makes, long enough for V8 to pretenure that site, then makes as much
 * again after a full collection. Pretenured, those objects are born old and need no young collection; V8 traces
 * every collection (`--trace-gc`, in order on stdout), so the scavenges after the forced one are counted.
 */
const PROBE = `
  for (const flag of JSON.parse(process.argv[1])) require('node:v8').setFlagsFromString(flag);
  const batch = () => Array.from({ length: 200000 }, (_, i) => ({ a: i, b: i + 1 }));
  const kept = [];
  for (let round = 0; round < 8; round++) kept.push(batch());
  globalThis.gc();
  for (let round = 0; round < 8; round++) kept.push(batch());
`;

function youngCollections(flags: string[]): number {
  const trace = execFileSync(
    process.execPath,
    [
      '--expose-gc',
      '--trace-gc',
      '--min-semi-space-size=16',
      '--max-semi-space-size=16',
      '-e',
      PROBE,
      JSON.stringify(flags),
    ],
    { encoding: 'utf8', env: { PATH: process.env.PATH } },
  );
  const afterForced = trace.slice(trace.indexOf('testing'));
  return afterForced.split('\n').filter((line) => line.includes('Scavenge')).length;
}

describe('V8 flags', () => {
  it('turn allocation-site pretenuring off: objects that die young are born young', () => {
    const withDefaults = youngCollections([]);
    const withOurs = youngCollections(V8_FLAGS);
    // Pretenured, the second half is born old (no young collection on node 20); not, it is born young (8).
    expect(withOurs).toBeGreaterThanOrEqual(4);
    expect(withOurs).toBeGreaterThanOrEqual(withDefaults * 2);
  });

  it('are set by the server before anything else loads', () => {
    const main = readFileSync(join(__dirname, 'main.ts'), 'utf8');
    expect(main.split('\n')[0]).toMatch(/^import '\.\/v8-flags';/);
  });

  it('that only the command line can give are given by `npm start` and the image, before the script', () => {
    const root = join(__dirname, '..');
    const start = (
      JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: { start: string } }
    ).scripts.start;
    expect(start).toBe(`node ${LAUNCH_FLAGS.join(' ')} bin/outpost.js serve`);
    const cmd = readFileSync(join(root, 'docker', 'Dockerfile'), 'utf8')
      .split('\n')
      .find((line) => line.startsWith('CMD '));
    expect(JSON.parse(cmd!.slice(4))).toEqual(['node', ...LAUNCH_FLAGS, 'dist/main.js']);
  });
});
