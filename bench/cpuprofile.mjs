#!/usr/bin/env node
/*
 * Summarises a V8 .cpuprofile (e.g. from `BENCH_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof" npm run
 * bench:prompt`): self and inclusive time by package (or dist/ file) and by function.
 *
 *   node bench/cpuprofile.mjs <file.cpuprofile> [--from <function regex>] [--callers <function regex>] [--top N]
 *
 * `--from doStream` skips the samples before the first one whose stack holds a matching function (start-up);
 * `--callers writev` lists the call chains under which a matching function spent its time instead.
 */
import { readFileSync } from 'node:fs';

const args = process.argv.slice(2);
const option = (name) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const file = args.find((arg, i) => !arg.startsWith('--') && !args[i - 1]?.startsWith('--'));
if (!file) {
  process.stderr.write(
    'usage: node bench/cpuprofile.mjs <file.cpuprofile> [--from re] [--callers re] [--top N]\n',
  );
  process.exit(2);
}
const top = Number(option('--top') ?? 30);
const from = option('--from') ? new RegExp(option('--from')) : undefined;
const callers = option('--callers') ? new RegExp(option('--callers')) : undefined;

// Piped into `head`: stop quietly when the reader has gone.
process.stdout.on('error', (error) => process.exit(error.code === 'EPIPE' ? 0 : 1));

const profile = JSON.parse(readFileSync(file, 'utf8'));
const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
const parents = new Map();
for (const node of profile.nodes) for (const child of node.children ?? []) parents.set(child, node.id);

const where = (url) => {
  if (!url) return '(native)';
  const dependency = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (dependency) return dependency[1];
  if (url.includes('/dist/')) return `dist/${url.split('/dist/')[1]}`;
  return url.startsWith('node:') ? 'node' : url;
};
const frame = (node) =>
  `${node.callFrame.functionName || '(anonymous)'} ${where(node.callFrame.url)}:${node.callFrame.lineNumber + 1}`;
const stackOf = (id) => {
  const stack = [];
  for (let at = id; at !== undefined; at = parents.get(at)) stack.push(nodes.get(at));
  return stack;
};

const self = new Map();
const inclusive = new Map();
const byPackage = new Map();
const chains = new Map();
const add = (map, key, time) => map.set(key, (map.get(key) ?? 0) + time);
let total = 0;
let started = !from;
for (let i = 0; i < profile.samples.length; i++) {
  const time = profile.timeDeltas[i] ?? 0;
  const stack = stackOf(profile.samples[i]);
  if (!started) {
    if (!stack.some((node) => from.test(node.callFrame.functionName))) continue;
    started = true;
  }
  total += time;
  if (callers) {
    const at = stack.findIndex((node) => callers.test(node.callFrame.functionName));
    if (at >= 0)
      add(
        chains,
        stack
          .slice(at, at + 10)
          .map(frame)
          .join('\n    < '),
        time,
      );
    continue;
  }
  add(self, frame(stack[0]), time);
  const seen = new Set();
  const seenPackages = new Set();
  for (const node of stack) {
    const key = frame(node);
    if (!seen.has(key)) (add(inclusive, key, time), seen.add(key));
    const pkg = where(node.callFrame.url);
    if (node.callFrame.url && !seenPackages.has(pkg)) (add(byPackage, pkg, time), seenPackages.add(pkg));
  }
}

const ms = (us) => `${(us / 1000).toFixed(0).padStart(7)} ms ${((100 * us) / total).toFixed(1).padStart(5)}%`;
const show = (title, map, count) => {
  process.stdout.write(`\n== ${title}\n`);
  for (const [key, time] of [...map].sort((a, b) => b[1] - a[1]).slice(0, count))
    process.stdout.write(`${ms(time)}  ${key}\n`);
};
process.stdout.write(`${(total / 1000).toFixed(0)} ms sampled${from ? ` from the first ${from}` : ''}\n`);
if (callers) show(`call chains under ${callers}`, chains, top);
else {
  show('self, by function', self, top);
  show('inclusive, by package or file', byPackage, top);
  show('inclusive, by function', inclusive, top);
}
