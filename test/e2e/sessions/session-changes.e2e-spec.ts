/**
 * Session update, remove and fork: members changed and cleared, a whole tree deleted with its messages, history
 * copied before a message into a child; unknown sessions and messages refused, nothing changed.
 */
import { Client } from 'pg';
import { recordEvents } from '../../helpers/sessions';
import { auth, create, get, post, service, t, useSessionsApp } from './lifecycle-fixture';

describe('session lifecycle', () => {
  useSessionsApp();

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
});
