/**
 * Session export of long transcripts, in pages: whole and in order without the unsettled messages, a bad row on a
 * later page refused before any byte, and only what was checked read.
 */
import { randomBytes } from 'node:crypto';
import { UnknownError } from '@/common/errors';
import { SessionExport, SessionTransferService } from '@/modules/session-transfer/session-transfer.service';
import { SessionsService } from '@/modules/sessions/sessions.service';
import { fullInfo, msgId, sessionId } from './fixtures';
import { exportSession, home, importSession, logs, sql, t, useTransferApp } from './transfer-fixture';

describe('session import and export', () => {
  useTransferApp();

  describe('export', () => {
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
