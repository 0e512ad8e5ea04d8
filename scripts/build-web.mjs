// @ts-check
/* Builds Outpost's web pages: every web/<entry>/main.tsx becomes dist/web/<entry>/main.js; web/shared/style.css and
 * favicon.svg are copied to dist/web. One bundle per entry, no request to any other origin at run time. */
import { build } from 'esbuild';
import { copyFileSync, existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..');
const web = join(root, 'web');
const out = join(root, 'dist', 'web');
const entries = readdirSync(web, { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && existsSync(join(web, entry.name, 'main.tsx')))
  .map((entry) => entry.name);

mkdirSync(out, { recursive: true });
await build({
  entryPoints: Object.fromEntries(entries.map((name) => [`${name}/main`, join(web, name, 'main.tsx')])),
  outdir: out,
  bundle: true,
  minify: true,
  sourcemap: true,
  format: 'esm',
  target: 'es2022',
  jsx: 'automatic',
  jsxImportSource: 'preact',
  logLevel: 'warning',
});
copyFileSync(join(web, 'shared', 'style.css'), join(out, 'style.css'));
copyFileSync(join(web, 'shared', 'favicon.svg'), join(out, 'favicon.svg'));
console.log(`web: built ${entries.join(', ') || 'no entry'} into dist/web`);
// The end of `npm run build`: `npm start` rebuilds only when a source is newer than this.
writeFileSync(join(root, 'dist', '.build-stamp'), `${new Date().toISOString()}\n`);
