/**
 * Switching a session's agent or model and moving it to another directory: what is recorded and published, what a
 * change to the same value leaves alone, and what is refused.
 */
import { join } from 'node:path';
import { recordEvents } from '../../helpers/sessions';
import { create, get, home, post, repo, service, t, useSessionsApp } from './lifecycle-fixture';

describe('session lifecycle', () => {
  useSessionsApp();

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
});
