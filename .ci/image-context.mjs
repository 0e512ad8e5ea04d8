#!/usr/bin/env node
/*
 * The image without a container builder (.ci/image's fallback where buildah cannot run): the Dockerfile's stages
 * replayed on this machine. Each stage gets a folder; COPY copies exactly the paths it names (from the build context
 * minus .dockerignore, or with --from from an earlier stage's folder), RUN runs in the stage's WORKDIR with its ENV,
 * and the last stage's CMD is started against PostgreSQL, with /health/ready, the pages and the JSON log checked.
 * FROM images, USER, VOLUME and HEALTHCHECK have no meaning here: this machine's Node.js stands in for the base.
 *
 *   node .ci/image-context.mjs docker/Dockerfile postgres://postgres@127.0.0.1:5432/outpost_image_ci
 */
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';

const [dockerfile, databaseUrl] = process.argv.slice(2);
if (!dockerfile || !databaseUrl) throw new Error('usage: image-context.mjs <Dockerfile> <DATABASE_URL>');
const context = process.cwd();
const work = mkdtempSync(join(tmpdir(), 'outpost-image-context-'));
let server;
process.on('exit', () => {
  if (server?.exitCode === null) server.kill('SIGKILL');
  rmSync(work, { recursive: true, force: true });
});

/** Instructions, with continuation lines joined and comments dropped. */
const instructions = readFileSync(dockerfile, 'utf8')
  .replace(/\\\n/g, ' ')
  .split('\n')
  .map((line) => line.trim())
  .filter((line) => line && !line.startsWith('#'))
  .map((line) => {
    const [, word, rest] = /^(\S+)\s*(.*)$/.exec(line);
    return { word: word.toUpperCase(), rest };
  });

/** .dockerignore's patterns, as tests on a path relative to the context (the forms this repository uses). */
const ignored = existsSync('.dockerignore')
  ? readFileSync('.dockerignore', 'utf8')
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => line && !line.startsWith('#'))
      .map((pattern) => {
        const source = pattern
          .replace(/^\/+|\/+$/g, '')
          .split('/')
          .map((part) =>
            part === '**' ? '(?:.*/)?' : part.replace(/\./g, '\\.').replace(/\*/g, '[^/]*') + '/',
          )
          .join('')
          .replace(/\/$/, '');
        return new RegExp(`^${source}(?:/|$)`);
      })
  : [];
const keep = (path) => !ignored.some((pattern) => pattern.test(relative(context, path)));

function fail(message) {
  console.error(message);
  process.exit(1);
}

/** What a stage's commands see of this machine: the path, and how npm reaches its registry (a proxy, its CA). */
const machine = Object.fromEntries(
  Object.entries(process.env).filter(([key]) =>
    /^(PATH|HOME|NODE_EXTRA_CA_CERTS|npm_config_.*|NPM_CONFIG_.*|https?_proxy|HTTPS?_PROXY|no_proxy|NO_PROXY)$/.test(
      key,
    ),
  ),
);

const stages = [];
let stage;
for (const { word, rest } of instructions) {
  if (word === 'FROM') {
    const name = /\sAS\s+(\S+)/i.exec(rest)?.[1];
    stage = { name, root: join(work, `stage-${stages.length}`), workdir: '/', env: { ...machine }, cmd: [] };
    mkdirSync(stage.root, { recursive: true });
    stages.push(stage);
  } else if (word === 'WORKDIR') {
    stage.workdir = rest.startsWith('/') ? rest : join(stage.workdir, rest);
    mkdirSync(join(stage.root, stage.workdir), { recursive: true });
  } else if (word === 'ENV') {
    for (const [, key, value] of rest.matchAll(/(\w+)=("[^"]*"|\S+)/g))
      stage.env[key] = value.replace(/^"|"$/g, '');
  } else if (word === 'COPY') {
    const words = rest.split(/\s+/);
    const from = words.find((part) => part.startsWith('--from='))?.slice('--from='.length);
    const paths = words.filter((part) => !part.startsWith('--'));
    const target = paths.pop();
    const source = from ? stages.find((earlier) => earlier.name === from) : undefined;
    if (from && !source) fail(`COPY --from=${from}: no such stage`);
    for (const path of paths) {
      const origin = source
        ? join(source.root, path.startsWith('/') ? path : join(source.workdir, path))
        : join(context, path);
      if (!existsSync(origin) || (!source && !keep(origin)))
        fail(`COPY ${path}: not in the ${source ? `stage ${from}` : 'build context'}`);
      const destination = join(stage.root, target.startsWith('/') ? target : join(stage.workdir, target));
      const into =
        target.endsWith('/') || paths.length > 1 ? join(destination, path.split('/').pop()) : destination;
      mkdirSync(dirname(into), { recursive: true });
      cpSync(origin, into, { recursive: true, verbatimSymlinks: true, filter: source ? undefined : keep });
    }
  } else if (word === 'RUN') {
    if (/^mkdir -p \/|chown /.test(rest)) {
      console.log(`RUN ${rest}: skipped (the image's own folders and owners)`);
      continue;
    }
    const cwd = join(stage.root, stage.workdir);
    console.log(`RUN ${rest}`);
    const run = spawnSync('sh', ['-c', rest], { cwd, env: stage.env, stdio: 'inherit' });
    if (run.status !== 0) fail(`RUN ${rest}: exit status ${run.status}`);
  } else if (word === 'CMD') {
    stage.cmd = JSON.parse(rest);
  }
}

const last = stages.at(-1);
const holds = readdirSync(join(last.root, last.workdir)).join(', ');
console.log(`the last stage holds ${holds}; starting ${last.cmd.join(' ')}`);

const port = await new Promise((resolve) => {
  const server = createServer().listen(0, '127.0.0.1', () => {
    const { port: free } = server.address();
    server.close(() => resolve(free));
  });
});
const dataDir = join(work, 'data');
server = spawn(last.cmd[0] === 'node' ? process.execPath : last.cmd[0], last.cmd.slice(1), {
  cwd: join(last.root, last.workdir),
  env: {
    ...last.env,
    HOST: '127.0.0.1',
    PORT: String(port),
    OUTPOST_DATA_DIR: dataDir,
    DATABASE_URL: databaseUrl,
    LOG_FORMAT: 'json',
  },
  stdio: ['ignore', 'pipe', 'pipe'],
});
let log = '';
server.stdout.on('data', (chunk) => (log += chunk));
server.stderr.on('data', (chunk) => (log += chunk));

const url = `http://127.0.0.1:${port}`;
try {
  let status = 0;
  for (let i = 0; i < 120 && status !== 200 && server.exitCode === null; i++) {
    await new Promise((resolve) => setTimeout(resolve, 1000));
    status = await fetch(`${url}/health/ready`).then(
      (res) => res.status,
      () => 0,
    );
  }
  if (status !== 200) fail(`/health/ready answered ${status}:\n${log.slice(-4000)}`);
  console.log(`${url}/health/ready 200`);
  for (const path of [
    '/',
    '/web/style.css',
    '/web/app/main.js',
    '/web/console/main.js',
    '/console/login',
    '/docs',
  ]) {
    const res = await fetch(`${url}${path}`);
    if (res.status !== 200) fail(`GET ${path} answered ${res.status}`);
  }
  console.log('the web app, the console and the API documents answer 200');
  const lines = log.split('\n').filter(Boolean);
  const notJson = lines.filter((line) => {
    try {
      JSON.parse(line);
      return false;
    } catch {
      return true;
    }
  });
  if (notJson.length) fail(`${notJson.length} log lines are not JSON:\n${notJson.join('\n')}`);
  const password = readFileSync(join(dataDir, 'server-password'), 'utf8').trim();
  if (log.includes(password)) fail('the generated password is in the log');
  console.log(`${lines.length} log lines, all JSON, without the generated password`);
} finally {
  if (server.exitCode === null) {
    server.kill('SIGTERM');
    await new Promise((resolve) => server.once('exit', resolve));
  }
}
