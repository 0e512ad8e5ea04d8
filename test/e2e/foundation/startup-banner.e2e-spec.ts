import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, MAIN, ServerProcess, startServer, waitForHealth } from '../../helpers/processes';
import { createTestDatabase } from '../../helpers/test-database';

/**
 * The start-up banner of a real `outpost serve`: one JSON record among the JSON log lines (a collector parses every
 * line), readable lines on a terminal, and a first start's password only where a terminal shows it.
 */
jest.setTimeout(300_000);

const folders: string[] = [];
const databases: { drop: () => Promise<void> }[] = [];

afterAll(async () => {
  for (const database of databases) await database.drop();
  for (const dir of folders) rmSync(dir, { recursive: true, force: true });
});

async function place() {
  const dir = mkdtempSync(join(tmpdir(), 'outpost-banner-'));
  folders.push(dir);
  const database = await createTestDatabase();
  databases.push(database);
  return { dir, database };
}

async function stop(server: ServerProcess): Promise<number | null> {
  server.child.kill('SIGTERM');
  return server.exited;
}

/** Every line of a stream, parsed; a line that is not JSON fails with the line itself. */
function records(stream: string): Record<string, unknown>[] {
  return stream
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => {
      try {
        return JSON.parse(line) as Record<string, unknown>;
      } catch {
        throw new Error(`not a JSON line: ${line}`);
      }
    });
}

describe('the start-up banner', () => {
  it('with LOG_FORMAT=json (and by default off a terminal) is one JSON record, and no line has the password', async () => {
    const { dir, database } = await place();
    const port = await freePort();
    const env = { PORT: String(port), DATABASE_URL: database.url, OUTPOST_DATA_DIR: dir };
    const first = startServer({ ...env, LOG_FORMAT: 'json' });
    await waitForHealth(first);
    expect((await fetch(`${first.url}/health/ready`)).status).toBe(200);
    expect(await stop(first)).toBe(0);

    const password = readFileSync(join(dir, 'server-password'), 'utf8').trim();
    expect(password.length).toBeGreaterThan(20);
    expect(first.output()).not.toContain(password);
    const lines = [...records(first.stdout()), ...records(first.stderr())];
    expect(lines.length).toBeGreaterThan(3);
    const banners = lines.filter((line) => line.banner === true);
    expect(banners).toEqual([
      expect.objectContaining({
        level: 30,
        msg: `Outpost is running on http://127.0.0.1:${port}`,
        urls: {
          server: `http://127.0.0.1:${port}`,
          webApp: `http://127.0.0.1:${port}/`,
          console: `http://127.0.0.1:${port}/console`,
          inference: `http://127.0.0.1:${port}/inference`,
          docs: `http://127.0.0.1:${port}/docs`,
        },
        surfaces: ['instance', 'console', 'inference'],
        database: expect.stringMatching(/^PostgreSQL at postgres:\/\/.*\/outpost_/),
        signup: 'open',
        firstStart: { user: 'opencode', passwordFile: join(dir, 'server-password') },
        // what to do next: where to sign in and where the password is, pairing, the console's first account
        next: [
          `open http://127.0.0.1:${port}/ and sign in as "opencode" with the server password (in ${join(dir, 'server-password')})`,
          'or connect a client or a phone: `outpost pair` prints a one-time link and its QR code',
          `open http://127.0.0.1:${port}/console and create an account`,
        ],
      }),
    ]);

    // A restart with LOG_FORMAT unset, on pipes, at LOG_LEVEL=warn: JSON as well, the banner still written, and
    // nothing about a first start.
    const second = startServer({
      ...env,
      LOG_FORMAT: undefined,
      LOG_LEVEL: 'warn',
      OUTPOST_SURFACES: 'console',
    });
    await waitForHealth(second);
    expect(await stop(second)).toBe(0);
    const again = [...records(second.stdout()), ...records(second.stderr())].filter((line) => line.banner);
    expect(again).toEqual([
      expect.objectContaining({
        urls: {
          server: `http://127.0.0.1:${port}`,
          console: `http://127.0.0.1:${port}/console`,
          docs: `http://127.0.0.1:${port}/docs`,
        },
        surfaces: ['console'],
      }),
    ]);
    expect(again[0]).not.toHaveProperty('firstStart');
    expect(second.output()).not.toContain(password);
  });

  it('with LOG_FORMAT=pretty on a pipe is readable lines that name the password file, not the password', async () => {
    const { dir, database } = await place();
    const server = startServer({
      PORT: String(await freePort()),
      DATABASE_URL: database.url,
      OUTPOST_DATA_DIR: dir,
      LOG_FORMAT: 'pretty',
    });
    await waitForHealth(server);
    expect(await stop(server)).toBe(0);
    const password = readFileSync(join(dir, 'server-password'), 'utf8').trim();
    expect(server.stderr()).toContain(
      `  Outpost is running on ${server.url}   (instance, console, inference)`,
    );
    expect(server.stderr()).toContain(
      `  FIRST START: a server password (user "opencode") was generated and kept in\n      ${join(dir, 'server-password')}\n`,
    );
    expect(server.output()).not.toContain(password);
  });

  it('on a terminal is readable lines with the first start password', async () => {
    const { dir, database } = await place();
    const port = await freePort();
    // `script` (util-linux) runs the server on a pseudo-terminal, as a person's shell does.
    const child = spawn('script', ['-qfec', `${process.execPath} ${MAIN}`, '/dev/null'], {
      env: {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        HOST: '127.0.0.1',
        PORT: String(port),
        DATABASE_URL: database.url,
        OUTPOST_DATA_DIR: dir,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    try {
      const deadline = Date.now() + 120_000;
      while (!output.includes('not shown again')) {
        if (child.exitCode !== null || Date.now() > deadline) throw new Error(`no banner:\n${output}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      const password = readFileSync(join(dir, 'server-password'), 'utf8').trim();
      const text = output.replace(/\r/g, '');
      expect(text).toContain(
        `  Outpost is running on http://127.0.0.1:${port}   (instance, console, inference)`,
      );
      expect(text).toContain(
        `  FIRST START: the server password (user "opencode") is\n\n      ${password}\n`,
      );
      expect(text).not.toContain('"level":');
    } finally {
      child.kill('SIGTERM');
      await exited;
    }
  });
});
