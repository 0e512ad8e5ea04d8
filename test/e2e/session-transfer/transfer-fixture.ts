/**
 * The app the session import and export tests run against, with its log captured, and their HTTP helpers; the
 * transfer data they send is in fixtures.ts. Call `useTransferApp()` inside a describe: `t` is the app from then on.
 */
import { CapturingLogger } from '../../helpers/capturing-logger';
import { api } from '../../helpers/prompt';
import { tempDir } from '../../helpers/sessions';
import { basic, createTestApp, TestApp } from '../../helpers/test-app';
import { query } from '../../helpers/test-database';

export let t: TestApp;
export const home = tempDir();
export const elsewhere = tempDir();
export const auth = basic();
export const logs = new CapturingLogger();

/** Starts the app (default directory `home`, its logs in `logs`) before the describe's tests, and stops it after. */
export function useTransferApp(): void {
  beforeAll(async () => {
    t = await createTestApp({ env: { OUTPOST_DEFAULT_DIRECTORY: home } });
    t.app.useLogger(logs);
  });
  afterAll(() => t.close());
}

export const get = (path: string) => api(t).get(path);
export const importSession = (body: unknown) =>
  api(t).post('/api/experimental/session/import', body as Record<string, unknown>);
export const exportSession = (id: string, query = '') =>
  get(`/api/experimental/session/${id}/export${query}`);
export const sql = (text: string, params: unknown[] = []) => query(t.databaseUrl!, text, params);
