import { execFile } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { freePort } from '../../helpers/processes';
import { createTestApp, TestApp } from '../../helpers/test-app';

const BIN = join(__dirname, '..', '..', '..', 'bin', 'outpost.js');

/** Runs `outpost pair` (built by `npm test`'s pretest) without blocking the in-process server. */
function outpostPair(
  env: Record<string, string>,
  args: string[] = [],
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [BIN, 'pair', ...args],
      { env: { PATH: process.env.PATH, HOME: process.env.HOME, HOST: '127.0.0.1', ...env } },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

describe('outpost pair (CLI)', () => {
  let t: TestApp;
  // No password in the environment: the server generates one and keeps it in its data directory.
  beforeAll(async () => (t = await createTestApp({ env: { OUTPOST_PASSWORD: undefined } })));
  afterAll(() => t.close());

  it('the generated password is kept in the data directory with mode 0600', () => {
    const file = join(t.dataDir, 'server-password');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readFileSync(file, 'utf8').trim()).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it('asks the running server for a code with the password from the data directory, prints link and QR', async () => {
    const port = new URL(t.url).port;
    const run = await outpostPair({ PORT: port, OUTPOST_DATA_DIR: t.dataDir });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const link = run.stdout.match(/http:\/\/127\.0\.0\.1:\d+\/auth\/connect\/([A-Za-z0-9_-]+)/);
    expect(link).not.toBeNull();
    expect(run.stdout).toMatch(/[▀▄█]/);
    const res = await fetch(link![0], { headers: { accept: 'application/json' } });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ token: expect.any(String) });
  });

  it('says why when the password is wrong', async () => {
    const run = await outpostPair({ PORT: new URL(t.url).port, OUTPOST_PASSWORD: 'wrong' });
    expect(run.code).toBe(1);
    expect(run.stderr).toBe('outpost pair: the server answered 401: Authentication required\n');
  });

  it('says so when no server answers', async () => {
    const run = await outpostPair({ PORT: String(await freePort()), OUTPOST_PASSWORD: 'x' });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^outpost pair: no server answers at http:\/\/127\.0\.0\.1:\d+/);
  });

  it('asks the server of --url, given as --url=<url> or --url <url>, over the environment', async () => {
    const elsewhere = { PORT: String(await freePort()), OUTPOST_DATA_DIR: t.dataDir };
    for (const args of [[`--url=${t.url}`], ['--url', t.url]]) {
      const run = await outpostPair(elsewhere, args);
      expect(run.stderr).toBe('');
      expect(run.code).toBe(0);
      expect(run.stdout).toMatch(/\/auth\/connect\/[A-Za-z0-9_-]+/);
    }
  });

  it('refuses an option it does not know, naming it, with its usage', async () => {
    const run = await outpostPair({ OUTPOST_DATA_DIR: t.dataDir }, ['--ulr=http://127.0.0.1:1']);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^outpost pair: Unknown option '--ulr'/);
    expect(run.stderr).toContain('usage: outpost pair [--url <server url>]');
    expect(run.stdout).toBe('');
  });
});
