/**
 * Session export: unknown sessions and bad queries, unsettled messages left out, every piece of user content
 * redacted by sanitize, a round trip through import, and an undecodable row answered with a logged error.
 */
import { SessionsService } from '@/modules/sessions/sessions.service';
import { fullInfo, fullMessages, msgId, sessionId } from './fixtures';
import { auth, elsewhere, exportSession, home, importSession, logs, sql, t } from './transfer-fixture';
import { useTransferApp } from './transfer-fixture';

describe('session import and export', () => {
  useTransferApp();

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
  });
});
