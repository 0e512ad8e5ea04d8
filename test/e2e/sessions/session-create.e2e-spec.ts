/**
 * Session create and get: the defaults, every member kept, nulls as absent, the location resolved into project and
 * subpath, children at their parent's location; taken ids, bad bodies, unknown locations and parents refused.
 */
import { join } from 'node:path';
import { hasNoNulls } from '../../helpers/sessions';
import { create, get, home, post, repo, t, useSessionsApp } from './lifecycle-fixture';

const SES = /^ses_[0-9a-f]{16}[0-9A-Za-z]{12}$/;

describe('session lifecycle', () => {
  useSessionsApp();

  describe('create and get', () => {
    it('creates at the default location with the defaults, omitting absent members', async () => {
      const start = Date.UTC(2026, 0, 2, 3, 4, 5, 6);
      t.clock.set(start);
      const res = await post('/api/session', {});
      expect(res.status).toBe(200);
      const data = res.body.data;
      expect(Object.keys(res.body)).toEqual(['data']);
      expect(data.id).toMatch(SES);
      const created = data.time.created;
      expect(created).toBeGreaterThanOrEqual(start);
      expect(created).toBeLessThan(start + 10_000);
      expect(data).toEqual({
        id: data.id,
        projectID: expect.stringMatching(/^[0-9a-f]{40}$/),
        agent: 'build',
        cost: 0,
        tokens: { input: 0, output: 0, reasoning: 0, cache: { read: 0, write: 0 } },
        time: { created, updated: created },
        title: `New session - ${new Date(created).toISOString()}`,
        location: { directory: home },
      });
      expect(data.title).toMatch(/^New session - 2026-01-02T03:04:/);
      const again = await get(`/api/session/${data.id}`);
      expect(again.status).toBe(200);
      expect(again.body).toEqual({ data });
    });

    it('keeps every given member, resolves the location into project and subpath', async () => {
      const id = 'ses_7fffffffffffffffAbCdEfGhIjKl';
      const body = {
        id,
        title: 'Refactor the parser',
        agent: 'plan',
        model: { id: 'claude-sonnet', providerID: 'anthropic', variant: 'high' },
        location: { directory: join(repo.root, 'pkg', 'web') },
        metadata: { ticket: 'OUT-1', nested: { ok: true } },
        permissions: [{ action: 'edit', resource: '*.md', effect: 'deny' }],
      };
      const data = await create(body);
      expect(data).toMatchObject({
        id,
        title: 'Refactor the parser',
        agent: 'plan',
        model: body.model,
        projectID: repo.commit,
        location: { directory: join(repo.root, 'pkg', 'web') },
        subpath: 'pkg/web',
        metadata: body.metadata,
        permissions: body.permissions,
      });
      expect(hasNoNulls(data)).toBe(true);
      expect((await get(`/api/session/${id}`)).body.data).toEqual(data);
    });

    it('accepts null for every member and treats it as absent', async () => {
      const data = await create({
        id: null,
        parentID: null,
        title: null,
        agent: null,
        model: null,
        location: null,
        metadata: null,
        permissions: null,
      });
      expect(data.location).toEqual({ directory: home });
      expect(hasNoNulls(data)).toBe(true);
    });

    it('refuses a taken id with 409 ConflictError', async () => {
      const { id } = await create();
      const res = await post('/api/session', { id });
      expect(res.status).toBe(409);
      expect(res.body).toEqual({
        _tag: 'ConflictError',
        message: `Session already exists: ${id}`,
        resource: id,
      });
    });

    it.each([
      [{ colour: 'blue' }, 'colour'],
      [{ id: 'ses_nope' }, 'id'],
      [{ id: 'abc_7fffffffffffffffAbCdEfGhIjKl' }, 'id'],
      [{ parentID: 42 }, 'parentID'],
      [{ title: 7 }, 'title'],
      [{ model: { id: 'x' } }, 'model.providerID'],
      [{ model: { id: 'x', providerID: 'y', extra: 1 } }, 'model.extra'],
      [{ metadata: [1, 2] }, 'metadata'],
      [{ permissions: [{ action: 'edit', resource: '*', effect: 'maybe' }] }, 'permissions.0.effect'],
      [{ location: { directory: 5 } }, 'location.directory'],
    ])('answers 400 naming the field for %j', async (body, field) => {
      const before = (await get('/api/session?limit=1000')).body.data.length;
      const res = await post('/api/session', body);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ _tag: 'InvalidRequestError', field, kind: 'Body' });
      expect((await get('/api/session?limit=1000')).body.data.length).toBe(before);
    });

    it('answers 404 LocationNotFoundError for a location that does not resolve', async () => {
      const res = await post('/api/session', { location: { directory: '/no/such/dir' } });
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({
        _tag: 'LocationNotFoundError',
        location: { directory: '/no/such/dir' },
      });
    });

    it('creates a child at the parent location, inheriting metadata unless given', async () => {
      const parent = await create({ location: { directory: repo.root }, metadata: { team: 'core' } });
      const child = await create({ parentID: parent.id });
      expect(child).toMatchObject({
        parentID: parent.id,
        location: { directory: repo.root },
        projectID: repo.commit,
        metadata: { team: 'core' },
      });
      const own = await create({
        parentID: parent.id,
        metadata: { team: 'web' },
        location: { directory: home },
      });
      expect(own).toMatchObject({
        parentID: parent.id,
        location: { directory: repo.root },
        metadata: { team: 'web' },
      });
    });

    it('answers 404 SessionNotFoundError for a missing parent', async () => {
      const parentID = 'ses_7ffffffffffffff0AbCdEfGhIjKl';
      const res = await post('/api/session', { parentID });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({
        _tag: 'SessionNotFoundError',
        message: `Session not found: ${parentID}`,
        sessionID: parentID,
      });
    });

    it('answers 404 for an unknown id and 400 for a malformed one', async () => {
      const missing = 'ses_7ffffffffffffff1AbCdEfGhIjKl';
      const res = await get(`/api/session/${missing}`);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({
        _tag: 'SessionNotFoundError',
        message: `Session not found: ${missing}`,
        sessionID: missing,
      });
      const bad = await get('/api/session/not-an-id');
      expect(bad.status).toBe(400);
      expect(bad.body).toMatchObject({ _tag: 'InvalidRequestError', field: 'sessionID', kind: 'Params' });
    });

    it('needs credentials', async () => {
      expect((await t.http.get('/api/session')).status).toBe(401);
      expect((await t.http.post('/api/session').send({})).status).toBe(401);
    });
  });
});
