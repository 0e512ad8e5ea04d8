// @ts-check
// `npm run check`: no cycle between the module folders of src/modules (a imports b imports … imports a), of any
// length. dependency-cruiser checks file cycles; this checks cycles between the folders, which it cannot express.
// The strongly connected components of the folders' import graph (Tarjan): any with more than one folder is a cycle.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const MODULES = join(dirname(fileURLToPath(import.meta.url)), '..', 'src', 'modules');

/**
 * The TypeScript files under `dir`, specs aside.
 * @param {string} dir
 * @returns {string[]}
 */
function files(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return files(path);
    return name.endsWith('.ts') && !name.endsWith('.spec.ts') ? [path] : [];
  });
}

/**
 * Which module folders each folder imports (static, type-only and dynamic imports alike).
 * @returns {Map<string, Set<string>>}
 */
export function moduleGraph(root = MODULES) {
  const edges = new Map();
  for (const module of readdirSync(root).filter((name) => statSync(join(root, name)).isDirectory())) {
    const targets = new Set();
    for (const file of files(join(root, module))) {
      const source = readFileSync(file, 'utf8');
      for (const [, spec] of source.matchAll(/(?:from|import\()\s*'(\.{1,2}\/[^']+)'/g)) {
        const target = relative(root, normalize(join(dirname(file), spec))).split('/')[0];
        if (target && !target.startsWith('..') && target !== module) targets.add(target);
      }
    }
    edges.set(module, targets);
  }
  return edges;
}

/**
 * The strongly connected components of more than one node: each is a set of folders that import each other in a
 * cycle (Tarjan's algorithm).
 * @param {Map<string, Set<string>>} edges
 * @returns {string[][]}
 */
export function cycles(edges) {
  let next = 0;
  /** @type {Map<string, number>} */
  const index = new Map();
  /** @type {Map<string, number>} */
  const low = new Map();
  /** @type {string[]} */
  const stack = [];
  const onStack = new Set();
  /** @type {string[][]} */
  const found = [];
  /** @param {string} node */
  const visit = (node) => {
    index.set(node, next);
    low.set(node, next++);
    stack.push(node);
    onStack.add(node);
    for (const target of edges.get(node) ?? []) {
      if (!index.has(target)) {
        visit(target);
        low.set(node, Math.min(low.get(node) ?? 0, low.get(target) ?? 0));
      } else if (onStack.has(target)) low.set(node, Math.min(low.get(node) ?? 0, index.get(target) ?? 0));
    }
    if (low.get(node) !== index.get(node)) return;
    /** @type {string[]} */
    const component = [];
    let member;
    do {
      member = /** @type {string} */ (stack.pop());
      onStack.delete(member);
      component.push(member);
    } while (member !== node);
    if (component.length > 1) found.push(component.sort());
  };
  for (const node of edges.keys()) if (!index.has(node)) visit(node);
  return found;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const found = cycles(moduleGraph());
  if (found.length) {
    const named = found.map((component) => component.join(' → ')).join('; ');
    console.error(
      `module folders importing each other in a cycle: ${named}; give the shared piece one home instead`,
    );
    process.exit(1);
  }
  console.log('module cycles: none');
}
