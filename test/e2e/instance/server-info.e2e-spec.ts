import { readFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { basic, createTestApp, TestApp } from '../../helpers/test-app';

const VERSION = (
  JSON.parse(readFileSync(join(__dirname, '..', '..', '..', 'package.json'), 'utf8')) as {
    version: string;
  }
).version;

describe('server.info: GET /api/info', () => {
  let t: TestApp;
  beforeAll(async () => (t = await createTestApp()));
  afterAll(() => t.close());

  it('tells the version, pid, the URLs it listens on, its paths, that it is ready, and that it is not signed in to a console', async () => {
    const res = await t.http.get('/api/info').set('authorization', basic());
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      version: VERSION,
      pid: process.pid,
      urls: [t.url],
      paths: { tmp: tmpdir(), home: homedir(), data: t.dataDir, config: join(t.dataDir, 'config') },
      ready: true,
      console: {
        state: 'unlinked',
        console: null,
        workspace: null,
        workspaceName: null,
        since: null,
        configFetchedAt: null,
        problem: null,
      },
    });
  });

  it('is not ready when the default location is gone', async () => {
    const broken = await createTestApp({ env: { OUTPOST_DEFAULT_DIRECTORY: '/no/such/directory' } });
    try {
      const res = await broken.http.get('/api/info').set('authorization', basic());
      expect(res.status).toBe(200);
      expect(res.body.ready).toBe(false);
    } finally {
      await broken.close();
    }
  });
});
