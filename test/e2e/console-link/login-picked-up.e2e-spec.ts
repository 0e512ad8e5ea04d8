import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Person, signup } from '../../helpers/console';
import { approve } from '../../helpers/device';
import { createTestApp, TestApp } from '../../helpers/test-app';
import { api } from '../../helpers/prompt';
import { runCli, runLogin } from '../../helpers/outpost-cli';

/** Within this of `outpost login` printing "Signed in", the running server must be linked (it looks every second). */
const PICKED_UP_MS = 5_000;

describe('a running server and `outpost login` / `outpost logout` in another process', () => {
  let consoleApp: TestApp;
  let instance: TestApp;
  let owner: Person;
  let dataDir: string;

  beforeAll(async () => {
    consoleApp = await createTestApp({
      env: { OUTPOST_SURFACES: 'console,inference', OUTPOST_SECRET_KEY: 'login-picked-up-secret-0123456789' },
    });
    owner = await signup(consoleApp);
    dataDir = mkdtempSync(join(tmpdir(), 'outpost-picked-up-'));
    // A poll far away: only the file watch can link the server in time.
    instance = await createTestApp({
      dataDir,
      env: { OUTPOST_CONSOLE_POLL_MS: '600000', OUTPOST_CONNECTIONS_ALLOW: '127.0.0.1' },
    });
  });
  afterAll(async () => {
    await instance?.close();
    await consoleApp?.close();
  });

  const state = async () => (await api(instance).get('/api/info')).body.console?.state as string;
  async function within(ms: number, wanted: string): Promise<number> {
    const started = Date.now();
    while ((await state()) !== wanted) {
      if (Date.now() - started > ms) throw new Error(`not ${wanted} after ${ms} ms`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    return Date.now() - started;
  }

  it('is linked within seconds of "Signed in", and unlinked within seconds of a logout', async () => {
    expect(await state()).toBe('unlinked');
    const login = runLogin(dataDir, consoleApp.url);
    await approve(consoleApp, owner, await login.code, owner.org);
    expect(await login.exited).toBe(0);
    expect(login.output()).toContain('Signed in to');
    expect(login.output()).toContain('picks it up within seconds');
    await within(PICKED_UP_MS, 'linked');

    expect((await runCli(dataDir, ['logout'])).code).toBe(0);
    await within(PICKED_UP_MS, 'unlinked');
  });
});
