/**
 * Sessions seen from outside: the active list, session.created, updated and deleted published and carried on the
 * event stream, and every session operation documented under its spec id.
 */
import { openSse } from '../../helpers/sse';
import { recordEvents } from '../../helpers/sessions';
import { auth, create, get, home, post, t, useSessionsApp } from './lifecycle-fixture';

describe('session lifecycle', () => {
  useSessionsApp();

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
        'session.question.reply post /api/session/{sessionID}/question/{requestID}/reply',
        'session.question.reject post /api/session/{sessionID}/question/{requestID}/reject',
        'session.compact post /api/session/{sessionID}/compact',
        'session.revert.stage post /api/session/{sessionID}/revert/stage',
        'session.revert.commit post /api/session/{sessionID}/revert/commit',
        'session.revert.clear post /api/session/{sessionID}/revert/clear',
      ].sort(),
    );
  });
});
