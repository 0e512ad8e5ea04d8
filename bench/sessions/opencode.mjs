// The same requests against opencode's own server (`opencode serve` of the `opencode-ai` npm package) on
// 1,000 sessions. Installs the package with npm into a cache directory outside the repository once.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, realpathSync } from 'node:fs';
import { arch, platform, tmpdir } from 'node:os';
import { join } from 'node:path';

const VERSION = process.env.BENCH_OPENCODE_VERSION ?? '1.18.33';
const SESSIONS = 1_000;
const CACHE = join(tmpdir(), `outpost-bench-opencode-${VERSION}`);

/** The platform binary of `opencode-ai` (its postinstall, which copies it, may be blocked by npm). */
function installOpencode() {
  if (process.env.OPENCODE_BIN) return process.env.OPENCODE_BIN;
  const binary = join(CACHE, 'node_modules', `opencode-${platform()}-${arch()}`, 'bin', 'opencode');
  if (!existsSync(binary)) {
    mkdirSync(CACHE, { recursive: true });
    execFileSync('npm', ['install', '--no-save', '--no-audit', '--no-fund', `opencode-ai@${VERSION}`], {
      cwd: CACHE,
      stdio: 'inherit',
      timeout: 300_000,
    });
  }
  if (!existsSync(binary)) throw new Error(`npm installed opencode-ai@${VERSION} but ${binary} is missing`);
  return binary;
}

async function pool(count, concurrency, work) {
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) await work(next++);
    }),
  );
}

/** Starts `opencode serve` with 1,000 sessions; the requests to measure and a stop(), or why it could not. */
export async function startOpencode({ freePort, waitFor, password }) {
  let binary;
  try {
    binary = installOpencode();
  } catch (error) {
    return { reason: `opencode-ai@${VERSION} could not be installed: ${error.message}` };
  }
  const scratch = realpathSync(mkdtempSync(join(tmpdir(), 'outpost-bench-oc-')));
  const home = join(scratch, 'home');
  const directories = Array.from({ length: 20 }, (_, i) => join(scratch, `project-${i}`));
  for (const dir of [home, ...directories]) mkdirSync(dir, { recursive: true });
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const auth = { authorization: `Basic ${Buffer.from(`opencode:${password}`).toString('base64')}` };
  let output = '';
  const server = spawn(binary, ['serve', '--port', String(port), '--hostname', '127.0.0.1'], {
    cwd: directories[0],
    env: { PATH: process.env.PATH, HOME: home, OPENCODE_SERVER_PASSWORD: password, OPENCODE_PASSWORD: password },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  server.stdout.on('data', (chunk) => (output += chunk));
  server.stderr.on('data', (chunk) => (output += chunk));
  const stop = async () => {
    if (server.exitCode !== null) return;
    server.kill('SIGTERM');
    await new Promise((resolve) => server.once('exit', resolve));
  };
  try {
    try {
      await waitFor(`${base}/api/health`, auth, 90_000);
    } catch {
      await stop();
      return { reason: `opencode serve did not answer within 90 s; its output: ${output.slice(-500)}` };
    }
    const version = execFileSync(binary, ['--version'], { encoding: 'utf8', env: { PATH: process.env.PATH, HOME: home } }).trim();
    const started = Date.now();
    await pool(SESSIONS, 10, async (i) => {
      const res = await fetch(`${base}/api/session`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json' },
        body: JSON.stringify({ location: { directory: directories[i % directories.length] } }),
      });
      if (res.status !== 200) throw new Error(`opencode create answered ${res.status}: ${await res.text()}`);
    });
    console.log(`opencode ${version}: created ${SESSIONS} sessions in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    // The deepest page there is: follow `next` to the last full page.
    let deepest = `${base}/api/session?limit=50`;
    let pages = 1;
    for (; pages < SESSIONS / 50; pages++) {
      const body = await (await fetch(deepest, { headers: auth })).json();
      if (!body.cursor?.next || body.data.length < 50) break;
      deepest = `${base}/api/session?limit=50&cursor=${body.cursor.next}`;
    }
    const some = (await (await fetch(`${base}/api/session?limit=500`, { headers: auth })).json()).data[250].id;
    const options = { headers: auth };
    return {
      version,
      sessions: SESSIONS,
      stop,
      requests: [
        { name: 'list: first page (50)', url: `${base}/api/session?limit=50`, options },
        { name: `list: page ${pages} (cursor, the last)`, url: deepest, options },
        { name: 'list: filtered (directory)', url: `${base}/api/session?limit=50&directory=${encodeURIComponent(directories[7])}`, options },
        { name: 'get', url: `${base}/api/session/${some}`, options },
        {
          name: 'create',
          url: `${base}/api/session`,
          options: { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify({}) },
        },
        { name: 'baseline: active (no db)', url: `${base}/api/session/active`, options },
      ],
    };
  } catch (error) {
    await stop();
    return { reason: `opencode serve failed: ${error.message}` };
  }
}
