/**
 * The app the session lifecycle tests run against (default directory `home`, a git repository `repo` with a
 * `pkg/web` folder) and their HTTP helpers. Call `useSessionsApp()` inside a describe: `t` is the app from then on.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { SessionInfo } from '@/modules/sessions/session.types';
import { SessionsService } from '@/modules/sessions/sessions.service';
import { gitRepo } from '../../helpers/git-repo';
import { api } from '../../helpers/prompt';
import { tempDir } from '../../helpers/sessions';
import { basic, createTestApp, TestApp } from '../../helpers/test-app';

export let t: TestApp;
export const home = tempDir();
export const repo = gitRepo();
mkdirSync(join(repo.root, 'pkg', 'web'), { recursive: true });
export const auth = basic();

/** Starts the app before the describe's tests and stops it after. */
export function useSessionsApp(): void {
  beforeAll(async () => (t = await createTestApp({ env: { OUTPOST_DEFAULT_DIRECTORY: home } })));
  afterAll(() => t.close());
}

export const post = (path: string, body: unknown) => api(t).post(path, body as Record<string, unknown>);
export const get = (path: string) => api(t).get(path);
export const create = async (body: Record<string, unknown> = {}) => {
  const res = await post('/api/session', body);
  expect(res.status).toBe(200);
  return res.body.data as SessionInfo;
};
export const service = () => t.app.get(SessionsService);
