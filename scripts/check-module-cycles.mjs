// `npm run check`: no module folder of src/modules imports another that imports it back (a cycle between modules),
// except the pairs listed here, each a debt named in docs/ARCHITECTURE.md. dependency-cruiser checks file cycles;
// this checks cycles between the folders, which it cannot express.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const MODULES = join(dirname(fileURLToPath(import.meta.url)), '..', 'src', 'modules');
const KNOWN = new Set([]);

function files(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return files(path);
    return name.endsWith('.ts') && !name.endsWith('.spec.ts') ? [path] : [];
  });
}

const edges = new Map();
for (const module of readdirSync(MODULES)) {
  const targets = new Set();
  for (const file of files(join(MODULES, module))) {
    for (const [, spec] of readFileSync(file, 'utf8').matchAll(/from '(\.{1,2}\/[^']+)'/g)) {
      const target = relative(MODULES, normalize(join(dirname(file), spec))).split('/')[0];
      if (target && !target.startsWith('..') && target !== module) targets.add(target);
    }
  }
  edges.set(module, targets);
}

const cycles = [];
for (const [a, targets] of edges)
  for (const b of targets) if (a < b && edges.get(b)?.has(a)) cycles.push(`${a}<>${b}`);
const fresh = cycles.filter((pair) => !KNOWN.has(pair));
const gone = [...KNOWN].filter((pair) => !cycles.includes(pair));
if (gone.length) console.log(`module cycles no longer there (remove them from KNOWN): ${gone.join(', ')}`);
if (fresh.length) {
  console.error(`modules importing each other: ${fresh.join(', ')}; give the shared piece one home instead`);
  process.exit(1);
}
console.log(`module cycles: none new (${cycles.length} known: ${cycles.join(', ') || 'none'})`);
