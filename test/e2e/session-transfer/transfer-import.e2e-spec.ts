/**
 * Session import: what is stored and announced, where it lands, ids taken or raced for, parents first, bad
 * messages named, and nothing kept of an import that fails.
 */
import { recordEvents } from '../../helpers/sessions';
import { fullInfo, fullMessages, msgId, sessionId } from './fixtures';
import { elsewhere, exportSession, get, home, importSession, sql, t } from './transfer-fixture';
import { useTransferApp } from './transfer-fixture';

describe('session import and export', () => {
  useTransferApp();

  describe('import', () => {
    it('stores the session and every message, sets time.updated to the import time, emits session.created', async () => {
      const id = sessionId();
      const events = recordEvents(t);
      t.clock.set(Date.UTC(2026, 5, 1));
      const info = fullInfo(id, elsewhere);
      const res = await importSession({ info, messages: fullMessages() });
      expect(res.status).toBe(200);
      expect(Object.keys(res.body)).toEqual(['data']);
      const { projectID, ...rest } = res.body.data;
      expect(projectID).not.toBe('ignored');
      expect(rest).toEqual({
        ...fullInfo(id, elsewhere),
        projectID: undefined,
        time: { ...info.time, updated: expect.any(Number) },
      });
      expect(rest.time.updated).toBeGreaterThanOrEqual(Date.UTC(2026, 5, 1));
      expect(rest.time.updated).toBeLessThan(Date.UTC(2026, 5, 1) + 10_000);
      expect(events.filter((e) => e.type === 'session.created').map((e) => e.data)).toEqual([
        { sessionID: id, info: res.body.data },
      ]);
      expect((await get(`/api/session/${id}`)).body.data).toEqual(res.body.data);
      const exported = await exportSession(id);
      expect(exported.body.data.messages).toEqual(
        fullMessages().map((m) => ({ ...m, id: expect.any(String) })),
      );
    });

    it('imports at `location`, else at the directory in info, else at the default; an unknown one is a 404', async () => {
      const at = async (body: Record<string, unknown>) => {
        const res = await importSession({ messages: [], ...body });
        expect(res.status).toBe(200);
        return res.body.data.location.directory;
      };
      const bare = fullInfo(sessionId(), home);
      delete (bare as Partial<typeof bare>).location;
      expect(await at({ info: fullInfo(sessionId(), home), location: { directory: elsewhere } })).toBe(
        elsewhere,
      );
      expect(await at({ info: fullInfo(sessionId(), elsewhere) })).toBe(elsewhere);
      expect(await at({ info: bare })).toBe(home);
      const missing = await importSession({ info: fullInfo(sessionId(), '/no/such/dir'), messages: [] });
      expect(missing.status).toBe(404);
      expect(missing.body).toMatchObject({ _tag: 'LocationNotFoundError' });
    });

    it('refuses an existing id with 409 ConflictError { resource }, and keeps the first', async () => {
      const id = sessionId();
      expect((await importSession({ info: fullInfo(id, home), messages: [] })).status).toBe(200);
      const again = await importSession({ info: { ...fullInfo(id, home), title: 'other' }, messages: [] });
      expect(again.status).toBe(409);
      expect(again.body).toEqual({
        _tag: 'ConflictError',
        message: `Session already exists: ${id}`,
        resource: id,
      });
      expect((await get(`/api/session/${id}`)).body.data.title).toBe('Fix the login bug');
    });

    it('lets exactly one of two racing imports of one id win', async () => {
      const id = sessionId();
      const messages = Array.from({ length: 300 }, (_, i) => ({
        id: msgId(),
        type: 'user',
        time: { created: 1000 + i },
        text: `m${i}`,
      }));
      const results = await Promise.all([
        importSession({ info: fullInfo(id, home), messages }),
        importSession({ info: fullInfo(id, home), messages }),
      ]);
      expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
      expect(results.find((r) => r.status === 409)!.body).toMatchObject({
        _tag: 'ConflictError',
        resource: id,
      });
      expect(await sql('SELECT count(*)::int AS n FROM session_message WHERE session_id = $1', [id])).toEqual(
        [{ n: 300 }],
      );
    });

    it('needs the parent first: 404 SessionNotFoundError, then a child once the parent is in', async () => {
      const parent = sessionId();
      const child = sessionId();
      const orphan = await importSession({ info: fullInfo(child, home, { parentID: parent }), messages: [] });
      expect(orphan.status).toBe(404);
      expect(orphan.body).toMatchObject({ _tag: 'SessionNotFoundError', sessionID: parent });
      expect((await get(`/api/session/${child}`)).status).toBe(404);
      expect((await importSession({ info: fullInfo(parent, home), messages: [] })).status).toBe(200);
      const res = await importSession({ info: fullInfo(child, home, { parentID: parent }), messages: [] });
      expect(res.status).toBe(200);
      expect(res.body.data.parentID).toBe(parent);
    });

    it('names the index and field of a bad message, and stores nothing', async () => {
      const id = sessionId();
      const cases: Array<[(messages: Record<string, unknown>[]) => void, string]> = [
        [(m) => (m[4].type = 'telepathy'), 'messages.4.type'],
        [(m) => (m[0].text = 7), 'messages.0.text'],
        [(m) => delete m[9].model, 'messages.9.model'],
        [(m) => (m[9].surprise = true), 'messages.9.surprise'],
        [
          (m) => ((m[9].content as Record<string, unknown>[])[2].state = { status: 'done' }),
          'messages.9.content.2.state.status',
        ],
        [(m) => (m[5].id = m[3].id), 'messages.5.id'],
      ];
      for (const [spoil, field] of cases) {
        const messages = fullMessages() as Record<string, unknown>[];
        spoil(messages);
        const res = await importSession({ info: fullInfo(id, home), messages });
        expect(res.status).toBe(400);
        expect(res.body).toMatchObject({ _tag: 'InvalidRequestError', kind: 'Body', field });
      }
      const badInfo = await importSession({ info: { ...fullInfo(id, home), cost: -1 }, messages: [] });
      expect(badInfo.body).toMatchObject({ _tag: 'InvalidRequestError', field: 'info.cost' });
      expect((await importSession({ info: fullInfo(id, home) })).body).toMatchObject({ field: 'messages' });
      expect((await get(`/api/session/${id}`)).status).toBe(404);
    });

    it('rolls everything back when a message in the middle fails to store', async () => {
      const id = sessionId();
      const messages = Array.from({ length: 2500 }, (_, i) => ({
        id: msgId(),
        type: 'user',
        time: { created: 1000 + i },
        text: i === 1700 ? 'explode' : `m${i}`,
      }));
      // A real database failure in the second chunk of inserts.
      await sql(`CREATE FUNCTION explode() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN IF NEW.data->>'text' = 'explode' THEN RAISE EXCEPTION 'boom'; END IF; RETURN NEW; END $$`);
      await sql(
        'CREATE TRIGGER explode BEFORE INSERT ON session_message FOR EACH ROW EXECUTE FUNCTION explode()',
      );
      try {
        const res = await importSession({ info: fullInfo(id, home), messages });
        expect(res.status).toBe(500);
      } finally {
        await sql('DROP TRIGGER explode ON session_message');
        await sql('DROP FUNCTION explode()');
      }
      expect((await get(`/api/session/${id}`)).status).toBe(404);
      expect(await sql('SELECT count(*)::int AS n FROM session_message WHERE session_id = $1', [id])).toEqual(
        [{ n: 0 }],
      );
      expect((await importSession({ info: fullInfo(id, home), messages })).status).toBe(200);
    });

    it('refuses text PostgreSQL cannot store (a NUL character) with 400, storing nothing', async () => {
      const id = sessionId();
      const messages = fullMessages() as Record<string, unknown>[];
      messages[3].text = 'a \u0000 b';
      const res = await importSession({ info: fullInfo(id, home), messages });
      expect(res.body).toMatchObject({ _tag: 'InvalidRequestError', field: 'messages.3.text' });
      const meta = await importSession({
        info: { ...fullInfo(id, home), metadata: { k: ['\u0000'] } },
        messages: [],
      });
      expect(meta.body).toMatchObject({ _tag: 'InvalidRequestError', field: 'info.metadata.k.0' });
      expect((await get(`/api/session/${id}`)).status).toBe(404);
    });
  });
});
