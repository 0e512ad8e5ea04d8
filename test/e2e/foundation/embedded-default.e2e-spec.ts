import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runningPostmaster } from '@/database/embedded/postmaster';
import { freePort, startServer, stopEmbeddedServerOf, waitForHealth } from '../../helpers/processes';

/**
 * The default install: no DATABASE_URL, the embedded PostgreSQL in OUTPOST_DATA_DIR, real `outpost` processes.
 */
jest.setTimeout(300_000);

const CLI = join(__dirname, '..', '..', '..', 'bin', 'outpost.js');
const folders: string[] = [];

function dataDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'outpost-embedded-'));
  folders.push(dir);
  return dir;
}

afterAll(async () => {
  for (const dir of folders) {
    await stopEmbeddedServerOf(dir);
    rmSync(dir, { recursive: true, force: true });
  }
});

function env(dir: string, port: number): Record<string, string> {
  return { OUTPOST_DATA_DIR: dir, OUTPOST_CONFIG_DIR: join(dir, 'config'), PORT: String(port) };
}

/** `outpost console create-user` as a person types it, the password on standard input. */
function createUser(
  dir: string,
  email: string,
  password: string,
): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const child = spawn(
      process.execPath,
      [CLI, 'console', 'create-user', '--email', email, '--password-stdin'],
      {
        env: { PATH: process.env.PATH, HOME: process.env.HOME, OUTPOST_DATA_DIR: dir },
      },
    );
    let out = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    child.stderr.on('data', (chunk) => (out += chunk));
    child.stdin.end(password);
    child.on('exit', (code) => resolve({ code, out }));
  });
}

async function signIn(url: string, email: string, password: string): Promise<number> {
  const res = await fetch(`${url}/console/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  return res.status;
}

async function stop(server: ReturnType<typeof startServer>): Promise<number | null> {
  server.child.kill('SIGTERM');
  return server.exited;
}

describe('the embedded default (no DATABASE_URL)', () => {
  it('a first start says where it listens, where the data is, and where the generated password is; a restart does not repeat it', async () => {
    const dir = dataDir();
    const first = startServer({ ...env(dir, await freePort()), LOG_LEVEL: 'warn', LOG_FORMAT: 'pretty' });
    await waitForHealth(first);
    expect(first.output()).toContain(`database    embedded PostgreSQL, data in ${join(dir, 'postgres')}`);
    // Standard error is a pipe here, not a terminal: the banner names the file, never the password.
    expect(first.output()).toContain(
      'FIRST START: a server password (user "opencode") was generated and kept in',
    );
    expect(first.output()).toContain(join(dir, 'server-password'));
    expect(first.output()).not.toContain(readFileSync(join(dir, 'server-password'), 'utf8').trim());
    expect(first.output()).toContain(`/console`);
    expect(first.output()).toContain(`/docs`);
    expect(await stop(first)).toBe(0);
    // Stopped with the server: no PostgreSQL left on the folder.
    expect(runningPostmaster(join(dir, 'postgres'))).toBeUndefined();

    const second = startServer({ ...env(dir, await freePort()), LOG_LEVEL: 'warn', LOG_FORMAT: 'pretty' });
    await waitForHealth(second);
    expect(second.output()).not.toContain('FIRST START');
    expect(await stop(second)).toBe(0);
  });

  it('`console create-user` while the server runs: the person signs in at once, and after a restart', async () => {
    const dir = dataDir();
    const port = await freePort();
    const server = startServer(env(dir, port));
    await waitForHealth(server);
    const created = await createUser(dir, 'ada@example.com', 'correct horse battery');
    expect(created).toMatchObject({ code: 0 });
    expect(created.out).toMatch(/^created usr_/);
    expect(await signIn(server.url, 'ada@example.com', 'correct horse battery')).toBe(204);
    // The command joined the server's PostgreSQL and left it running.
    expect((await fetch(`${server.url}/health`)).status).toBe(200);
    expect(await stop(server)).toBe(0);

    const again = startServer(env(dir, port));
    await waitForHealth(again);
    expect(await signIn(again.url, 'ada@example.com', 'correct horse battery')).toBe(204);
    expect(await stop(again)).toBe(0);
  });

  it('`console create-user` with no server running starts the database for itself and stops it', async () => {
    const dir = dataDir();
    const created = await createUser(dir, 'grace@example.com', 'correct horse battery');
    expect(created).toMatchObject({ code: 0 });
    expect(runningPostmaster(join(dir, 'postgres'))).toBeUndefined();
    const server = startServer(env(dir, await freePort()));
    await waitForHealth(server);
    expect(await signIn(server.url, 'grace@example.com', 'correct horse battery')).toBe(204);
    expect(await stop(server)).toBe(0);
  });

  it('a second server on the same data folder refuses in one line; the first keeps working with its data', async () => {
    const dir = dataDir();
    const first = startServer(env(dir, await freePort()));
    await waitForHealth(first);
    expect((await createUser(dir, 'lin@example.com', 'correct horse battery')).code).toBe(0);

    const second = startServer({ ...env(dir, await freePort()), LOG_LEVEL: 'warn', LOG_FORMAT: 'pretty' });
    expect(await second.exited).toBe(1);
    const lines = second.output().trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      new RegExp(
        `^outpost: cannot start: another Outpost server \\(pid ${first.child.pid}\\) is using the data folder`,
      ),
    );

    expect(await signIn(first.url, 'lin@example.com', 'correct horse battery')).toBe(204);
    expect(await stop(first)).toBe(0);
  });

  it('kill -9 of a running server: the next start adopts its database and nothing acknowledged is lost', async () => {
    const dir = dataDir();
    const port = await freePort();
    const first = startServer(env(dir, port));
    await waitForHealth(first);
    expect((await createUser(dir, 'kim@example.com', 'correct horse battery')).code).toBe(0);
    first.child.kill('SIGKILL');
    await first.exited;
    // PostgreSQL outlives its owner; the next server finds it through the data folder and takes it over.
    expect(runningPostmaster(join(dir, 'postgres'))).toBeDefined();

    const second = startServer(env(dir, port));
    await waitForHealth(second);
    expect(second.output()).toContain('adopting the embedded PostgreSQL');
    expect(await signIn(second.url, 'kim@example.com', 'correct horse battery')).toBe(204);
    expect(await stop(second)).toBe(0);
    expect(runningPostmaster(join(dir, 'postgres'))).toBeUndefined();
  });

  it.each([
    ['during initdb', (dir: string) => readdirSync(dir).some((name) => name.startsWith('postgres.init-'))],
    ['while migrating', (dir: string) => existsSync(join(dir, 'postgres', 'postmaster.pid'))],
  ])('kill -9 of a first start %s: the next start recovers', async (_when, reached) => {
    const dir = dataDir();
    const port = await freePort();
    const first = startServer(env(dir, port));
    // initdb alone takes seconds, many more on a loaded machine: wait up to a minute for the moment to kill at.
    const deadline = Date.now() + 60_000;
    while (!reached(dir) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 5));
    expect(reached(dir)).toBe(true);
    first.child.kill('SIGKILL');
    await first.exited;

    const second = startServer(env(dir, port));
    await waitForHealth(second);
    expect(await createUser(dir, 'max@example.com', 'correct horse battery')).toMatchObject({ code: 0 });
    expect(await signIn(second.url, 'max@example.com', 'correct horse battery')).toBe(204);
    expect(readdirSync(dir).filter((name) => name.startsWith('postgres.init-'))).toEqual([]);
    expect(await stop(second)).toBe(0);
  });

  it('`outpost --help`, `-h`, `<cmd> --help` and `--version` answer and exit 0 without starting anything', () => {
    const dir = dataDir();
    const run = (...args: string[]) =>
      spawnSync(process.execPath, [CLI, ...args], {
        env: { PATH: process.env.PATH, HOME: process.env.HOME, OUTPOST_DATA_DIR: dir },
        encoding: 'utf8',
      });
    for (const args of [['--help'], ['-h'], ['serve', '--help'], ['console', '--help'], ['pair', '--help']]) {
      const result = run(...args);
      expect({ args, status: result.status }).toEqual({ args, status: 0 });
      expect(result.stdout).toMatch(/^usage: outpost/);
    }
    expect(run('--version').stdout).toMatch(/^outpost \d+\.\d+\.\d+\n$/);
    expect(run('nonsense').status).toBe(2);
    expect(readdirSync(dir)).toEqual([]);
  });
});
