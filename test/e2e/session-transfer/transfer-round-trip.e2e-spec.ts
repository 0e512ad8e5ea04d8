/**
 * Whatever export produces, import takes back: a session of 100,000 messages (every kind of content, a user turn
 * and an assistant turn with reasoning, text and a tool call) exported, imported under a new id, and exported again
 * gives the same messages. The import reads its body as it streams, so no body limit stands in the way.
 */
import { isDeepStrictEqual } from 'node:util';
import { tempDir } from '../../helpers/sessions';
import { basic, createTestApp, TestApp } from '../../helpers/test-app';
import { fullInfo, sessionId } from './fixtures';

const MESSAGES = 100_000;
const PASTED = 'error: build failed at step 7 of 12. '.repeat(30);
let t: TestApp;
const home = tempDir();

function transcript(count: number) {
  const start = Date.UTC(2026, 0, 1);
  return Array.from({ length: count }, (_, i) => {
    const id = `msg_${(0x100000000n + BigInt(i)).toString(16).padStart(16, '0')}roundTRIP001`;
    const created = start + i * 1000;
    // A pasted log in every prompt: the body passes the 64 MiB an import was once limited to.
    if (i % 2 === 0) return { id, type: 'user', time: { created }, text: `prompt ${i}: ${PASTED}` };
    return {
      id,
      type: 'assistant',
      time: { created, completed: created + 900 },
      agent: 'build',
      model: { id: 'claude-sonnet', providerID: 'anthropic' },
      content: [
        { type: 'reasoning', text: `thinking about ${i}` },
        { type: 'text', text: `done ${i} "quoted" \\ and \n new line` },
        {
          type: 'tool',
          id: `call_${i}`,
          name: 'read',
          state: {
            status: 'completed',
            input: { path: `/src/file-${i}.ts` },
            content: [{ type: 'text', text: `contents of ${i}` }],
          },
          time: { created: created + 100, ran: created + 150, completed: created + 800 },
        },
      ],
      finish: 'tool-calls',
      cost: 0.0123,
      tokens: { input: 1200, output: 300, reasoning: 50, cache: { read: 800, write: 100 } },
    };
  });
}

const headers = { authorization: basic(), 'content-type': 'application/json' };

/**
 * The same messages in the same order, compared one by one with node's deep equality; the first that differs is shown
 * as `toEqual` shows it. (`toEqual` over the 100,000 messages: this file took 224 s in a clean-clone CI; 108 s so.)
 */
function expectSameMessages(actual: unknown[], expected: unknown[]) {
  expect(actual).toHaveLength(expected.length);
  const index = actual.findIndex((message, i) => !isDeepStrictEqual(message, expected[i]));
  if (index >= 0) expect({ index, message: actual[index] }).toEqual({ index, message: expected[index] });
}

async function importText(body: string): Promise<number> {
  const res = await fetch(`${t.url}/api/experimental/session/import`, { method: 'POST', headers, body });
  await res.text();
  return res.status;
}

async function exported(id: string): Promise<{ info: { id: string }; messages: unknown[] }> {
  const res = await fetch(`${t.url}/api/experimental/session/${id}/export`, { headers });
  expect(res.status).toBe(200);
  return ((await res.json()) as { data: { info: { id: string }; messages: unknown[] } }).data;
}

describe('session export and import, round trip', () => {
  beforeAll(async () => {
    t = await createTestApp({ env: { OUTPOST_DEFAULT_DIRECTORY: home } });
  });
  afterAll(() => t.close());

  it(`imports the export of a ${MESSAGES.toLocaleString('en')}-message session again, message for message`, async () => {
    const first = sessionId();
    const messages = transcript(MESSAGES);
    expect(await importText(JSON.stringify({ info: fullInfo(first, home), messages }))).toBe(200);
    const once = await exported(first);
    expectSameMessages(once.messages, messages);

    const second = sessionId();
    const body = JSON.stringify({ info: { ...once.info, id: second }, messages: once.messages });
    expect(Buffer.byteLength(body)).toBeGreaterThan(64 * 1024 * 1024);
    expect(await importText(body)).toBe(200);
    const twice = await exported(second);
    expectSameMessages(twice.messages, once.messages);
  }, 240_000); // two imports and two exports of 75 MB: about 20 s on a quiet machine, minutes on a loaded one
});
