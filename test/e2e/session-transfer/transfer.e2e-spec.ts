import { CapturingLogger } from '../../helpers/capturing-logger';
import { randomBytes } from 'node:crypto';
import { UnknownError } from '../../../src/common/errors';
import {
  SessionExport,
  SessionTransferService,
} from '../../../src/modules/session-transfer/session-transfer.service';
import { SessionsService } from '../../../src/modules/sessions/sessions.service';
import { basic, createTestApp, TestApp } from '../../helpers/test-app';
import { query } from '../../helpers/test-database';
import { recordEvents, tempDir } from '../../helpers/sessions';
import { fullInfo, fullMessages, msgId, sessionId } from './fixtures';

describe('session import and export', () => {
  let t: TestApp;
  const home = tempDir();
  const elsewhere = tempDir();
  const auth = basic();
  const logs = new CapturingLogger();

  beforeAll(async () => {
    t = await createTestApp({ env: { OUTPOST_DEFAULT_DIRECTORY: home } });
    t.app.useLogger(logs);
  });
  afterAll(() => t.close());

  const post = (path: string, body: unknown) =>
    t.http
      .post(path)
      .set('authorization', auth)
      .send(body as object);
  const get = (path: string) => t.http.get(path).set('authorization', auth);
  const importSession = (body: unknown) => post('/api/experimental/session/import', body);
  const exportSession = (id: string, query = '') => get(`/api/experimental/session/${id}/export${query}`);
  const sql = (text: string, params: unknown[] = []) => query(t.databaseUrl!, text, params);

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

  describe('export', () => {
    it('answers 404 for an unknown session and 400 for a bad sanitize', async () => {
      const missing = await exportSession(sessionId());
      expect(missing.status).toBe(404);
      expect(missing.body).toMatchObject({ _tag: 'SessionNotFoundError' });
      const id = sessionId();
      await importSession({ info: fullInfo(id, home), messages: [] });
      expect((await exportSession(id, '?sanitize=yes')).body).toMatchObject({
        field: 'sanitize',
        kind: 'Query',
      });
    });

    it('leaves out a streaming assistant message, a running shell and a running compaction', async () => {
      const id = sessionId();
      const settled = fullMessages();
      await importSession({ info: fullInfo(id, home), messages: settled });
      const service = t.app.get(SessionsService);
      await service.appendMessage(id, {
        type: 'assistant',
        agent: 'build',
        model: { id: 'claude', providerID: 'anthropic' },
        content: [{ type: 'text', text: 'still typing' }],
        time: { created: 5 },
      });
      await service.appendMessage(id, { type: 'shell', shellID: 's', command: 'sleep 9', status: 'running' });
      await service.appendMessage(id, { type: 'compaction', status: 'running', reason: 'manual' });
      const done = await service.appendMessage(id, { type: 'user', text: 'after', time: { created: 9 } });
      const res = await exportSession(id);
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      // Transcript order is id order.
      expect(res.body.data.messages.map((m: { id: string }) => m.id)).toEqual(
        [...settled.map((m) => m.id), done].sort(),
      );
    });

    it('redacts every piece of user content with sanitize=true and changes nothing else', async () => {
      const id = sessionId();
      const messages = fullMessages();
      await importSession({ info: fullInfo(id, home), messages });
      const plain = (await exportSession(id, '?sanitize=false')).body.data;
      const res = await exportSession(id, '?sanitize=true');
      expect(res.status).toBe(200);
      const r = (kind: string, of: string) => `[redacted:${kind}:${of}]`;
      const [user, synthetic, system, skill, shell, , , located, compaction, assistant, empty] = messages.map(
        (m) => m.id,
      );
      const expected = structuredClone(plain);
      Object.assign(expected.info, {
        title: r('session-title', id),
        metadata: { redacted: `session-metadata:${id}` },
        location: { directory: `/${r('session-directory', id)}` },
      });
      const m = expected.messages;
      Object.assign(m[0], {
        metadata: { redacted: `message-metadata:${user}` },
        text: r('user-text', user),
        files: [
          {
            data: '',
            mime: 'text/plain',
            source: { type: 'inline' },
            name: r('file-name', user),
            description: r('file-description', user),
            mention: { start: 0, end: 11, text: r('file-mention', user) },
          },
        ],
        agents: [
          { name: r('agent-name', user), mention: { start: 0, end: 9, text: r('agent-mention', user) } },
        ],
        skills: [
          {
            id: 'skl_1',
            name: r('skill-name', user),
            text: r('skill-text', user),
            mention: { start: 0, end: 7, text: r('skill-mention', user) },
          },
        ],
      });
      Object.assign(m[1], {
        text: r('synthetic-text', synthetic),
        description: r('synthetic-description', synthetic),
      });
      Object.assign(m[2], { text: r('system-text', system), description: r('system-description', system) });
      Object.assign(m[3], { name: r('skill-name', skill), text: r('skill-text', skill) });
      m[4].command = r('shell-command', shell);
      m[4].output.output = r('shell-output', shell);
      Object.assign(m[7], {
        location: { directory: `/${r('directory', located)}` },
        previous: { directory: `/${r('directory', located)}` },
        subpath: r('subpath', located),
      });
      Object.assign(m[8], {
        summary: r('compaction-summary', compaction),
        recent: r('compaction-recent', compaction),
      });
      m[9].metadata = { redacted: `message-metadata:${assistant}` };
      const [reasoning, text, read, bash] = m[9].content;
      Object.assign(reasoning, {
        text: r('reasoning', assistant),
        state: { redacted: `provider-state:${assistant}` },
      });
      Object.assign(text, {
        text: r('assistant-text', assistant),
        state: { redacted: `provider-state:${assistant}` },
      });
      Object.assign(read, {
        providerState: { redacted: 'provider-state:call_1' },
        providerResultState: { redacted: 'provider-state:call_1' },
      });
      Object.assign(read.state, {
        input: { redacted: 'tool-input:call_1' },
        metadata: { redacted: 'tool-metadata:call_1' },
        content: [
          { type: 'text', text: r('tool-output', 'call_1') },
          {
            type: 'file',
            uri: r('tool-file-uri', 'call_1'),
            mime: 'image/png',
            name: r('tool-file-name', 'call_1'),
          },
        ],
      });
      Object.assign(bash.state, {
        input: { redacted: 'tool-input:call_2' },
        metadata: { redacted: 'tool-metadata:call_2' },
        error: { type: 'denied', message: r('tool-error', 'call_2') },
        content: [{ type: 'text', text: r('tool-output', 'call_2') }],
      });
      expect(m[10]).toEqual({
        id: empty,
        type: 'user',
        time: { created: messages[10].time.created },
        text: '',
      });
      expect(res.body.data).toEqual(expected);
      // Ids, times, tokens, costs, models and agents are still there.
      expect(res.body.data.messages[9]).toMatchObject({
        agent: 'build',
        model: { id: 'claude', providerID: 'anthropic' },
        cost: 0.125,
        tokens: { input: 100, output: 50, reasoning: 5, cache: { read: 7, write: 3 } },
      });
      expect(JSON.stringify(res.body)).not.toMatch(/secret|login|ssh|deploy|rm -rf|\/home\/me/);
    });

    it('round-trips: export, delete, import, export gives the same transcript', async () => {
      const id = sessionId();
      // More than two export pages.
      const bulk = Array.from({ length: 1200 }, (_, i) => ({
        id: msgId(),
        type: 'user',
        time: { created: 100 + i },
        text: `bulk ${i}`,
      }));
      const created = await importSession({
        info: fullInfo(id, elsewhere),
        messages: [...fullMessages(), ...bulk],
      });
      const before = await exportSession(id);
      expect(before.body.data.messages).toHaveLength(11 + 1200);
      expect((await t.http.delete(`/api/session/${id}`).set('authorization', auth)).status).toBe(204);
      t.clock.set(Date.UTC(2026, 7, 1));
      const again = await importSession(before.body.data);
      expect(again.status).toBe(200);
      const after = await exportSession(id);
      const { updated, ...times } = after.body.data.info.time;
      expect(updated).toBeGreaterThanOrEqual(Date.UTC(2026, 7, 1));
      expect(updated).toBeLessThan(Date.UTC(2026, 7, 1) + 10_000);
      expect({ ...after.body.data, info: { ...after.body.data.info, time: times } }).toEqual({
        ...before.body.data,
        info: { ...before.body.data.info, time: { ...before.body.data.info.time, updated: undefined } },
      });
      expect(created.body.data.id).toBe(id);
    });

    it('answers 500 UnknownError with a ref in the log for a row that cannot be decoded', async () => {
      const id = sessionId();
      const messages = fullMessages();
      await importSession({ info: fullInfo(id, home), messages });
      await sql(`UPDATE session_message SET data = '{"text": 5}' WHERE session_id = $1 AND id = $2`, [
        id,
        messages[1].id,
      ]);
      const res = await exportSession(id);
      expect(res.status).toBe(500);
      expect(res.body).toEqual({
        _tag: 'UnknownError',
        message: expect.any(String),
        ref: expect.stringMatching(/^err_/),
      });
      expect(logs.lines.some((line) => line.includes(res.body.ref) && line.includes(messages[1].id))).toBe(
        true,
      );
    });

    /**
     * `count` settled messages (users and assistants by turns) in id order; users whose index `padded`
     * accepts carry `bytes` of text that does not compress much (the export's pages are capped in stored bytes).
     */
    const bulk = (count: number, padded = (_i: number) => false, bytes = 0) =>
      Array.from({ length: count }, (_, i) =>
        i % 2 === 0
          ? {
              id: msgId(),
              type: 'user',
              time: { created: 1000 + i },
              text: padded(i) ? randomBytes(bytes / 2).toString('hex') : `prompt ${i}`,
            }
          : {
              id: msgId(),
              type: 'assistant',
              time: { created: 1000 + i, completed: 1001 + i },
              agent: 'build',
              model: { id: 'claude', providerID: 'anthropic' },
              content: [{ type: 'text', text: `answer ${i}` }],
              cost: 0.5,
              tokens: { input: i, output: 1, reasoning: 0, cache: { read: 0, write: 0 } },
            },
      );

    it('exports a transcript of several pages whole and in order, leaving out unsettled messages on each', async () => {
      const id = sessionId();
      // 2,500 messages, some of 20 KB: pages end at 1,000 messages or at 1 MB, with an unsettled one every 300.
      const all = bulk(2500, (i) => i % 20 === 0, 20_000);
      const unsettled = all.filter((_, i) => i % 300 === 151);
      const settled = all.filter((message) => !unsettled.includes(message));
      await importSession({ info: fullInfo(id, home), messages: settled });
      const service = t.app.get(SessionsService);
      for (const message of unsettled)
        await service.appendMessage(id, {
          ...message,
          type: 'assistant',
          time: { created: message.time.created },
          content: [{ type: 'text', text: 'still typing' }],
        } as Parameters<SessionsService['appendMessage']>[1]);
      const res = await exportSession(id);
      expect(res.status).toBe(200);
      expect(res.body.data.messages).toEqual(settled);
      const sanitized = await exportSession(id, '?sanitize=true');
      expect(sanitized.body.data.messages.map((m: { id: string }) => m.id)).toEqual(settled.map((m) => m.id));
    });

    it('answers 500 UnknownError before any byte for a bad row on a later page, with the ref in the log', async () => {
      const id = sessionId();
      // About 8 MB in many pages: nothing is held back, the first pass checks every row before the head.
      const messages = bulk(2500, () => true, 6000);
      await importSession({ info: fullInfo(id, home), messages });
      await sql(`UPDATE session_message SET data = '{"text": 5}' WHERE session_id = $1 AND id = $2`, [
        id,
        messages[2400].id,
      ]);
      const before = logs.lines.length;
      const res = await exportSession(id);
      expect(res.status).toBe(500);
      expect(res.body).toEqual({
        _tag: 'UnknownError',
        message: expect.any(String),
        ref: expect.stringMatching(/^err_/),
      });
      expect(
        logs.lines
          .slice(before)
          .some((line) => line.includes(res.body.ref) && line.includes(messages[2400].id)),
      ).toBe(true);
    });

    it('reads only what it checked, and fails with a logged UnknownError on a row gone bad in between', async () => {
      // Between the check and the read the response has started, so over HTTP this failure cuts it.
      const id = sessionId();
      const messages = bulk(1500);
      await importSession({ info: fullInfo(id, home), messages });
      const transfer = t.app.get(SessionTransferService);
      const read = async (data: SessionExport) => {
        const ids: string[] = [];
        for await (const page of data.pages) for (const message of page) ids.push(message.id);
        return ids;
      };
      const checked = await transfer.export(id, false);
      // Added after the check: not in this export.
      await t.app.get(SessionsService).appendMessage(id, { type: 'user', text: 'later' });
      expect(await read(checked)).toEqual(messages.map((m) => m.id));
      const spoiled = await transfer.export(id, false);
      await sql(`UPDATE session_message SET data = '{"text": 5}' WHERE session_id = $1 AND id = $2`, [
        id,
        messages[1400].id,
      ]);
      const before = logs.lines.length;
      await expect(read(spoiled)).rejects.toBeInstanceOf(UnknownError);
      expect(
        logs.lines.slice(before).some((line) => line.includes(messages[1400].id) && /err_/.test(line)),
      ).toBe(true);
    });
  });
});
