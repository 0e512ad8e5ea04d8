import { mkdirSync, mkdtempSync, realpathSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gitRepo } from '../helpers/git-repo';
import { basic, createTestApp, TestApp } from '../helpers/test-app';

describe('location.get', () => {
  let t: TestApp;
  const repo = gitRepo();
  const plain = realpathSync(mkdtempSync(join(tmpdir(), 'outpost-plain-')));

  beforeAll(async () => (t = await createTestApp({ env: { OUTPOST_DEFAULT_DIRECTORY: plain } })));
  afterAll(() => t.close());

  const get = (query = '') => t.http.get(`/api/location${query}`).set('authorization', basic());

  it('resolves a git project by its root commit, with the worktree root as project directory', async () => {
    mkdirSync(join(repo.root, 'pkg', 'app'), { recursive: true });
    const dir = join(repo.root, 'pkg', 'app');
    const res = await get(`?location[directory]=${encodeURIComponent(dir)}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      directory: dir,
      project: { id: repo.commit, directory: repo.root, canonical: repo.root },
    });
  });

  it('falls back to the server default directory, with a stable path-derived id outside git', async () => {
    const first = await get();
    const again = await get();
    expect(first.status).toBe(200);
    expect(first.body.directory).toBe(plain);
    expect(first.body.project.id).toMatch(/^[0-9a-f]{40}$/);
    expect(again.body.project.id).toBe(first.body.project.id);
  });

  it('resolves symlinks and `..` to the real directory', async () => {
    const link = join(plain, 'link-to-repo');
    symlinkSync(repo.root, link);
    const viaLink = await get(`?location[directory]=${encodeURIComponent(link)}`);
    expect(viaLink.body.directory).toBe(repo.root);
    const viaDots = await get(`?location[directory]=${encodeURIComponent(join(repo.root, 'pkg', '..'))}`);
    expect(viaDots.body.directory).toBe(repo.root);
  });

  it.each([
    ['relative', 'some/relative/dir'],
    ['missing', '/definitely/not/here'],
    ['a file', '/etc/hostname'],
  ])('answers 404 LocationNotFoundError for a %s path', async (_kind, directory) => {
    const res = await get(`?location[directory]=${encodeURIComponent(directory)}`);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({
      _tag: 'LocationNotFoundError',
      message: `Location not found: ${directory}`,
      location: { directory },
    });
  });

  it('tolerates location[workspace] from older clients and refuses unknown members', async () => {
    const ok = await get(`?location[directory]=${encodeURIComponent(plain)}&location[workspace]=wrk_1`);
    expect(ok.status).toBe(200);
    const bad = await get('?location[colour]=blue');
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ _tag: 'InvalidRequestError', field: 'location.colour', kind: 'Query' });
  });

  it('needs credentials', async () => {
    const res = await t.http.get('/api/location');
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ _tag: 'UnauthorizedError', message: 'Authentication required' });
  });
});
