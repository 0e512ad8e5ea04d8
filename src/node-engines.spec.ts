import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { minVersion, satisfies } from 'semver';

const root = join(__dirname, '..');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8'));

describe('the Node versions Outpost states', () => {
  // `npm ci` warns EBADENGINE for any package whose engines leave out the running Node: on the oldest Node
  // package.json allows, none may (content-disposition 3, through @fastify/static, wanted Node 22).
  it('every package in package-lock.json supports the oldest Node that package.json allows', () => {
    const oldest = minVersion(pkg.engines.node)!.version;
    const refusing = Object.entries(lock.packages as Record<string, { engines?: { node?: string } }>)
      .filter(([, entry]) => entry.engines?.node && !satisfies(oldest, entry.engines.node))
      .map(([name, entry]) => `${name} wants node ${entry.engines!.node}`);
    expect(refusing).toEqual([]);
    expect(satisfies(oldest, '20.x')).toBe(true);
  });

  it('the README and docs/operations.md name the same oldest Node as package.json', () => {
    const oldest = minVersion(pkg.engines.node)!;
    const stated = `Node.js ${oldest.major}.${oldest.minor}`;
    for (const file of ['README.md', 'docs/operations.md']) {
      const text = readFileSync(join(root, file), 'utf8');
      const named = [...text.matchAll(/Node\.js (\d+(?:\.\d+)?) \(or newer/g)].map(
        (match) => `Node.js ${match[1]}`,
      );
      expect({ file, named }).toEqual({ file, named: [stated] });
    }
  });
});
