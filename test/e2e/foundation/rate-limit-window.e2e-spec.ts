import { RATE_LIMIT_STORE, RateLimitStore } from '@/common/rate-limit/rate-limit.store';
import { eventually } from '../../helpers/eventually';
import { query } from '../../helpers/test-database';
import { createTestApp, TestApp } from '../../helpers/test-app';

const MINUTE = 60_000;

describe('rate limit windows in PostgreSQL', () => {
  let t: TestApp;
  let store: RateLimitStore;

  beforeAll(async () => {
    t = await createTestApp();
    store = t.app.get<RateLimitStore>(RATE_LIMIT_STORE);
  });
  afterAll(() => t.close());

  const rows = () =>
    query<{ key: string; hits: number }>(
      t.databaseUrl!,
      `SELECT key, hits FROM rate_limit_window WHERE key LIKE 'window-%' ORDER BY key`,
    );

  it('counts hits in a window row and starts a new window once it ended', async () => {
    const now = t.clock.now();
    await store.hit('window-count', MINUTE, now);
    expect((await store.hit('window-count', MINUTE, now + 1_000, 2)).count).toBe(3);
    expect(await rows()).toEqual([{ key: 'window-count', hits: 3 }]);
    expect((await store.hit('window-count', MINUTE, now + MINUTE + 1)).count).toBe(1);
    await store.clear('window-count');
  });

  it('deletes the rows of windows that ended, keeping those that run', async () => {
    const now = t.clock.now();
    await store.hit('window-short', 1_000, now);
    await store.hit('window-long', 60 * MINUTE, now);
    // A hit a few minutes on sweeps the table (at most once a minute per process).
    await store.hit('window-later', MINUTE, now + 5 * MINUTE);
    const left = await eventually(rows, (seen) => !seen.some((row) => row.key === 'window-short'));
    expect(left.map((row) => row.key)).toEqual(['window-later', 'window-long']);
  });
});
