import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from 'pg';
import { SessionInfo } from '../../../src/modules/sessions/session.types';
import { SessionsService } from '../../../src/modules/sessions/sessions.service';
import { openSse } from '../../helpers/sse';
import { basic, createTestApp, TestApp } from '../../helpers/test-app';
import { gitRepo } from '../../helpers/git-repo';
import { hasNoNulls, recordEvents, tempDir } from '../../helpers/sessions';

const SES = /^ses_[0-9a-f]{16}[0-9A-Za-z]{12}$/;

describe('session lifecycle', () => {
  let t: TestApp;
  const home = tempDir();
  const repo = gitRepo();
  mkdirSync(join(repo.root, 'pkg', 'web'), { recursive: true });
  const auth = basic();

  beforeAll(async () => (t = await createTestApp({ env: { OUTPOST_DEFAULT_DIRECTORY: home } })));
  afterAll(() => t.close());

  const post = (path: string, body: unknown) =>
    t.http
      .post(path)
      .set('authorization', auth)
      .send(body as object);
  const get = (path: string) => t.http.get(path).set('authorization', auth);
  const create = async (body: Record<string, unknown> = {}) => {
    const res = await post('/api/session', body);
    expect(res.status).toBe(200);
    return res.body.data as SessionInfo;
  };
  const service = () => t.app.get(SessionsService);

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

  describe('update', () => {
    it('changes title, metadata and permissions (204), null clears, time.updated moves', async () => {
      const session = await create({ title: 'a', metadata: { a: 1 }, permissions: [] });
      t.clock.advance(60_000);
      const res = await t.http
        .patch(`/api/session/${session.id}`)
        .set('authorization', auth)
        .send({
          title: 'b',
          metadata: { b: 2 },
          permissions: [{ action: '*', resource: '*', effect: 'ask' }],
        });
      expect(res.status).toBe(204);
      expect(res.text).toBe('');
      const after = (await get(`/api/session/${session.id}`)).body.data;
      expect(after).toMatchObject({
        title: 'b',
        metadata: { b: 2 },
        permissions: [{ action: '*', resource: '*', effect: 'ask' }],
      });
      expect(after.time.updated).toBeGreaterThanOrEqual(session.time.updated + 60_000);
      await t.http
        .patch(`/api/session/${session.id}`)
        .set('authorization', auth)
        .send({ metadata: null, permissions: null, title: null })
        .expect(204);
      const cleared = (await get(`/api/session/${session.id}`)).body.data;
      expect(cleared.metadata).toBeUndefined();
      expect(cleared.permissions).toBeUndefined();
      expect(cleared.title).toBe(`New session - ${new Date(session.time.created).toISOString()}`);
    });

    it('answers 404 for an unknown session and 400 for a bad body, changing nothing', async () => {
      const missing = 'ses_7ffffffffffffff2AbCdEfGhIjKl';
      const res = await t.http
        .patch(`/api/session/${missing}`)
        .set('authorization', auth)
        .send({ title: 'x' });
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ _tag: 'SessionNotFoundError', sessionID: missing });
      const session = await create({ title: 'keep' });
      const bad = await t.http
        .patch(`/api/session/${session.id}`)
        .set('authorization', auth)
        .send({ title: 'new', agent: 'plan' });
      expect(bad.status).toBe(400);
      expect(bad.body).toMatchObject({ field: 'agent' });
      expect((await get(`/api/session/${session.id}`)).body.data.title).toBe('keep');
    });
  });

  describe('remove', () => {
    it('deletes a three-level tree with its messages in one go, and nothing else', async () => {
      const root = await create();
      const child = await create({ parentID: root.id });
      const grandchild = await create({ parentID: child.id });
      const sibling = await create({ parentID: root.id });
      const other = await create();
      for (const session of [root, child, grandchild, sibling, other]) {
        await service().appendMessage(session.id, { type: 'user', text: `hello ${session.id}` });
      }
      const events = recordEvents(t);
      const res = await t.http.delete(`/api/session/${root.id}`).set('authorization', auth);
      expect(res.status).toBe(204);
      for (const gone of [root, child, grandchild, sibling]) {
        expect((await get(`/api/session/${gone.id}`)).status).toBe(404);
      }
      expect((await get(`/api/session/${other.id}`)).status).toBe(200);
      const db = new Client({ connectionString: t.databaseUrl });
      await db.connect();
      const left = await db.query('SELECT session_id FROM session_message WHERE session_id = ANY($1)', [
        [root.id, child.id, grandchild.id, sibling.id, other.id],
      ]);
      await db.end();
      expect(left.rows).toEqual([{ session_id: other.id }]);
      const deleted = events
        .filter((e) => e.type === 'session.deleted')
        .map((e) => (e.data as { sessionID: string }).sessionID);
      expect(deleted.sort()).toEqual([root.id, child.id, grandchild.id, sibling.id].sort());
      expect(deleted.indexOf(grandchild.id)).toBeLessThan(deleted.indexOf(child.id));
      expect(deleted[deleted.length - 1]).toBe(root.id);
    });

    it('answers 404 for an unknown session', async () => {
      const missing = 'ses_7ffffffffffffff3AbCdEfGhIjKl';
      const res = await t.http.delete(`/api/session/${missing}`).set('authorization', auth);
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ _tag: 'SessionNotFoundError', sessionID: missing });
    });
  });

  describe('fork', () => {
    it('copies the history strictly before the given message into a new child', async () => {
      const source = await create({ title: 'Source', metadata: { m: 1 }, agent: 'plan' });
      const ids: string[] = [];
      ids.push(await service().appendMessage(source.id, { type: 'user', text: 'one' }));
      ids.push(
        await service().appendMessage(source.id, {
          type: 'assistant',
          agent: 'plan',
          model: { id: 'm', providerID: 'p' },
          content: [
            { type: 'text', text: 'answer' },
            { type: 'reasoning', text: 'thinking' },
            {
              type: 'tool',
              id: 'call_1',
              name: 'read',
              state: { status: 'completed', input: { path: 'a' }, content: [{ type: 'text', text: 'x' }] },
              time: { created: 1, completed: 2 },
            },
          ],
          finish: 'stop',
          cost: 0.0123,
          tokens: { input: 10, output: 20, reasoning: 3, cache: { read: 4, write: 5 } },
          time: { completed: t.clock.now() },
        }),
      );
      ids.push(await service().appendMessage(source.id, { type: 'user', text: 'three' }));
      ids.push(await service().appendMessage(source.id, { type: 'user', text: 'four' }));
      expect([...ids].sort()).toEqual(ids);

      const res = await post(`/api/session/${source.id}/fork`, { before: ids[2] });
      expect(res.status).toBe(200);
      const fork = res.body.data;
      expect(fork.id).not.toBe(source.id);
      expect(fork).toMatchObject({
        parentID: source.id,
        fork: { sessionID: source.id, boundary: { type: 'before', messageID: ids[2] } },
        agent: 'plan',
        metadata: { m: 1 },
        location: source.location,
      });
      const copied = await service().messages(fork.id);
      expect(copied.map((m) => m.id)).toEqual(ids.slice(0, 2));
      expect(copied).toEqual((await service().messages(source.id)).slice(0, 2));
      expect(copied[1]).toMatchObject({
        type: 'assistant',
        cost: 0.0123,
        tokens: { input: 10, cache: { write: 5 } },
      });

      const whole = (await post(`/api/session/${source.id}/fork`, {})).body.data;
      expect(whole.fork).toEqual({ sessionID: source.id, boundary: { type: 'through', messageID: ids[3] } });
      expect((await service().messages(whole.id)).map((m) => m.id)).toEqual(ids);
    });

    it('answers 404 MessageNotFoundError for a message of another session, 400 for a malformed one', async () => {
      const a = await create();
      const b = await create();
      const foreign = await service().appendMessage(b.id, { type: 'user', text: 'elsewhere' });
      const res = await post(`/api/session/${a.id}/fork`, { before: foreign });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({
        _tag: 'MessageNotFoundError',
        message: `Message not found: ${foreign}`,
        sessionID: a.id,
        messageID: foreign,
      });
      const bad = await post(`/api/session/${a.id}/fork`, { before: 'msg_x' });
      expect(bad.status).toBe(400);
      expect(bad.body).toMatchObject({ field: 'before' });
      const missing = await post('/api/session/ses_7ffffffffffffff4AbCdEfGhIjKl/fork', {});
      expect(missing.status).toBe(404);
      expect(missing.body._tag).toBe('SessionNotFoundError');
    });
  });

  describe('switch agent and model, move', () => {
    it('switches the agent, records agent-switched, publishes session.updated', async () => {
      const session = await create();
      const events = recordEvents(t);
      const res = await post(`/api/session/${session.id}/agent`, { agent: 'explore' });
      expect(res.status).toBe(204);
      expect((await get(`/api/session/${session.id}`)).body.data.agent).toBe('explore');
      const messages = await service().messages(session.id);
      expect(messages).toEqual([
        {
          id: expect.stringMatching(/^msg_/),
          type: 'agent-switched',
          agent: 'explore',
          previous: 'build',
          time: { created: expect.any(Number) },
        },
      ]);
      expect(events.map((e) => e.type)).toEqual(['session.updated', 'session.agent.selected']);
      expect(events[0]).toMatchObject({
        location: { directory: home },
        data: { sessionID: session.id, info: { agent: 'explore' } },
      });
    });

    it('records nothing when the agent, model or directory does not change', async () => {
      const session = await create({ model: { id: 'a', providerID: 'p' } });
      const events = recordEvents(t);
      await post(`/api/session/${session.id}/agent`, { agent: 'build' }).expect(204);
      await post(`/api/session/${session.id}/model`, {
        model: { id: 'a', providerID: 'p', variant: null },
      }).expect(204);
      await post(`/api/session/${session.id}/move`, { directory: home }).expect(204);
      expect(await service().messages(session.id)).toEqual([]);
      expect(events).toEqual([]);
      expect((await get(`/api/session/${session.id}`)).body.data.time.updated).toBe(session.time.updated);
    });

    it('refuses an unknown agent (404 AgentNotFoundError) and a missing one (400)', async () => {
      const session = await create();
      const res = await post(`/api/session/${session.id}/agent`, { agent: 'nope' });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({
        _tag: 'AgentNotFoundError',
        message: 'Agent not found: nope',
        agentID: 'nope',
      });
      const bad = await post(`/api/session/${session.id}/agent`, {});
      expect(bad.status).toBe(400);
      expect(bad.body).toMatchObject({ field: 'agent' });
      expect(await service().messages(session.id)).toEqual([]);
      const missing = await post('/api/session/ses_7ffffffffffffff5AbCdEfGhIjKl/agent', { agent: 'plan' });
      expect(missing.status).toBe(404);
      expect(missing.body._tag).toBe('SessionNotFoundError');
    });

    it('switches the model and records model-switched with the previous one', async () => {
      const session = await create({ model: { id: 'a', providerID: 'p' } });
      await post(`/api/session/${session.id}/model`, {
        model: { id: 'b', providerID: 'p', variant: 'fast' },
      }).expect(204);
      expect((await get(`/api/session/${session.id}`)).body.data.model).toEqual({
        id: 'b',
        providerID: 'p',
        variant: 'fast',
      });
      expect(await service().messages(session.id)).toMatchObject([
        {
          type: 'model-switched',
          model: { id: 'b', providerID: 'p', variant: 'fast' },
          previous: { id: 'a', providerID: 'p' },
        },
      ]);
      const bad = await post(`/api/session/${session.id}/model`, { model: { id: 'b' } });
      expect(bad.status).toBe(400);
      expect(bad.body).toMatchObject({ field: 'model.providerID' });
      const none = await post(`/api/session/${session.id}/model`, {});
      expect(none.body).toMatchObject({ field: 'model' });
    });

    it('moves a session: location, project and subpath change, location-switched is recorded', async () => {
      const session = await create();
      const target = join(repo.root, 'pkg', 'web');
      const res = await post(`/api/session/${session.id}/move`, { directory: target, delivery: 'queue' });
      expect(res.status).toBe(204);
      const moved = (await get(`/api/session/${session.id}`)).body.data;
      expect(moved).toMatchObject({
        location: { directory: target },
        projectID: repo.commit,
        subpath: 'pkg/web',
      });
      expect(await service().messages(session.id)).toMatchObject([
        {
          type: 'location-switched',
          location: { directory: target },
          projectID: repo.commit,
          subpath: 'pkg/web',
          previous: { directory: home },
        },
      ]);
      const missing = await post(`/api/session/${session.id}/move`, { directory: '/no/such/dir' });
      expect(missing.status).toBe(404);
      expect(missing.body).toMatchObject({
        _tag: 'LocationNotFoundError',
        location: { directory: '/no/such/dir' },
      });
      const relative = await post(`/api/session/${session.id}/move`, { directory: 'pkg' });
      expect(relative.body).toMatchObject({ _tag: 'InvalidRequestError', field: 'directory' });
      const delivery = await post(`/api/session/${session.id}/move`, { directory: home, delivery: 'later' });
      expect(delivery.body).toMatchObject({ _tag: 'InvalidRequestError', field: 'delivery' });
      expect((await get(`/api/session/${session.id}`)).body.data.location).toEqual({ directory: target });
    });
  });

  it('lists no active sessions while nothing runs', async () => {
    const res = await get('/api/session/active');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: {} });
  });

  it('publishes session.created and session.updated with the session info', async () => {
    const events = recordEvents(t);
    const session = await create({ title: 'evented' });
    await t.http
      .patch(`/api/session/${session.id}`)
      .set('authorization', auth)
      .send({ title: 'renamed' })
      .expect(204);
    expect(events.map((e) => e.type)).toEqual(['session.created', 'session.updated']);
    expect(events[0]).toMatchObject({
      location: { directory: home },
      data: { sessionID: session.id, info: session },
    });
    expect(events[1]).toMatchObject({ data: { info: { title: 'renamed' } } });
  });

  it('carries session.created, session.updated and session.deleted on the event stream', async () => {
    const client = await openSse(`${t.url}/api/event`, { authorization: auth });
    try {
      await client.until((events) => events.some((e) => e.type === 'server.connected'));
      const session = await create();
      await post(`/api/session/${session.id}/agent`, { agent: 'plan' }).expect(204);
      await t.http.delete(`/api/session/${session.id}`).set('authorization', auth).expect(204);
      const events = await client.until((all) => all.some((e) => e.type === 'session.deleted'));
      const mine = events.filter((e) => (e.data as { sessionID?: string }).sessionID === session.id);
      expect(mine.map((e) => e.type)).toEqual([
        'session.created',
        'session.updated',
        'session.agent.selected',
        'session.deleted',
      ]);
      expect(mine[0]).toMatchObject({ location: { directory: home }, data: { info: { id: session.id } } });
    } finally {
      client.close();
    }
  });

  it('documents every session operation under its spec id in the instance document', async () => {
    const doc = (await t.http.get('/docs/instance.json')).body as {
      paths: Record<string, Record<string, { operationId: string }>>;
    };
    const ids = Object.entries(doc.paths)
      .filter(([path]) => path.startsWith('/api/session'))
      .flatMap(([path, ops]) =>
        Object.entries(ops).map(([method, op]) => `${op.operationId} ${method} ${path}`),
      );
    expect(ids.sort()).toEqual(
      [
        'session.active get /api/session/active',
        'session.create post /api/session',
        'session.fork post /api/session/{sessionID}/fork',
        'session.get get /api/session/{sessionID}',
        'session.list get /api/session',
        'session.move post /api/session/{sessionID}/move',
        'session.remove delete /api/session/{sessionID}',
        'session.switchAgent post /api/session/{sessionID}/agent',
        'session.switchModel post /api/session/{sessionID}/model',
        'session.update patch /api/session/{sessionID}',
        'session.wait post /api/session/{sessionID}/wait',
        'session.prompt post /api/session/{sessionID}/prompt',
        'session.interrupt post /api/session/{sessionID}/interrupt',
        'session.messages get /api/session/{sessionID}/message',
        'session.permission.create post /api/session/{sessionID}/permission',
        'session.permission.get get /api/session/{sessionID}/permission/{requestID}',
        'session.permission.list get /api/session/{sessionID}/permission',
        'session.permission.reply post /api/session/{sessionID}/permission/{requestID}/reply',
        // The released SDK's reads of a transcript, and what Outpost answers with a 501 (session-history).
        'session.message get /api/session/{sessionID}/message/{messageID}',
        'session.context get /api/session/{sessionID}/context',
        'session.history get /api/session/{sessionID}/history',
        'session.events get /api/session/{sessionID}/event',
        'session.question.list get /api/session/{sessionID}/question',
        'session.compact post /api/session/{sessionID}/compact',
        'session.revert.stage post /api/session/{sessionID}/revert/stage',
        'session.revert.commit post /api/session/{sessionID}/revert/commit',
        'session.revert.clear post /api/session/{sessionID}/revert/clear',
      ].sort(),
    );
  });
});
