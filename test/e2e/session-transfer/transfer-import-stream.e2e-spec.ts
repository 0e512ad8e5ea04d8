/**
 * Session import reads its body as it streams: members in any order, a body cut into small writes, a failure half
 * way that stores nothing, and the operator's limit (OUTPOST_IMPORT_BODY_LIMIT) named in its 413.
 */
import { readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { eventually } from '../../helpers/eventually';
import { tempDir } from '../../helpers/sessions';
import { basic, createTestApp, TestApp } from '../../helpers/test-app';
import { query } from '../../helpers/test-database';
import { fullInfo, fullMessages, msgId, sessionId } from './fixtures';

const LIMIT = 1024 * 1024;
const home = tempDir();
const elsewhere = tempDir();
let t: TestApp;

interface Answer {
  _tag?: string;
  field?: string;
  message?: string;
  data?: { location: { directory: string } };
}

/** Sends `text` in writes of `size` bytes as a chunked body (no content-length), or whole with its length. */
async function post(text: string, { size = 0, auth = basic() } = {}) {
  const bytes = Buffer.from(text);
  const chunks = async function* () {
    for (let at = 0; at < bytes.length; at += size) yield bytes.subarray(at, at + size);
  };
  const res = await fetch(`${t.url}/api/experimental/session/import`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: auth },
    body: size > 0 ? (chunks() as unknown as ReadableStream) : bytes,
    duplex: 'half',
  } as RequestInit);
  return { status: res.status, body: (await res.json()) as Answer };
}

const stored = async (id: string) =>
  (
    await query<{ n: number }>(t.databaseUrl!, 'SELECT count(*)::int AS n FROM session WHERE id = $1', [id])
  )[0].n;

/** An import body whose members are written in the order given. */
function body(members: Array<[string, unknown]>): string {
  return `{${members.map(([key, value]) => `${JSON.stringify(key)}:${JSON.stringify(value)}`).join(',')}}`;
}

describe('session import, streamed', () => {
  beforeAll(async () => {
    t = await createTestApp({
      env: { OUTPOST_DEFAULT_DIRECTORY: home, OUTPOST_IMPORT_BODY_LIMIT: String(LIMIT) },
    });
  });
  afterAll(() => t.close());

  it('takes the body in small writes, with location after the messages and messages before info', async () => {
    const first = sessionId();
    const late = await post(
      body([
        ['info', fullInfo(first, home)],
        ['messages', fullMessages()],
        ['location', { directory: elsewhere }],
      ]),
      { size: 7 },
    );
    expect(late.status).toBe(200);
    expect(late.body.data?.location.directory).toBe(elsewhere);
    const row = await query<{ directory: string }>(
      t.databaseUrl!,
      'SELECT directory FROM session WHERE id = $1',
      [first],
    );
    expect(row).toEqual([{ directory: elsewhere }]);

    const second = sessionId();
    const early = await post(
      body([
        ['messages', fullMessages()],
        ['info', fullInfo(second, home)],
      ]),
      { size: 64 },
    );
    expect(early.status).toBe(200);
    const count = await query<{ n: number }>(
      t.databaseUrl!,
      'SELECT count(*)::int AS n FROM session_message WHERE session_id = $1',
      [second],
    );
    expect(count[0].n).toBe(fullMessages().length);
  });

  it('refuses a member given twice, or a malformed body half way, storing nothing', async () => {
    const twice = sessionId();
    const res = await post(`{"info":${JSON.stringify(fullInfo(twice, home))},"messages":[],"info":{}}`, {
      size: 10,
    });
    expect(res).toEqual({
      status: 400,
      body: expect.objectContaining({ _tag: 'InvalidRequestError', field: 'info' }),
    });
    expect(await stored(twice)).toBe(0);

    const cut = sessionId();
    const messages = Array.from({ length: 50 }, (_, i) => ({
      id: msgId(),
      type: 'user',
      time: { created: 1000 + i },
      text: `m${i}`,
    }));
    const text = body([
      ['info', fullInfo(cut, home)],
      ['messages', messages],
    ]);
    const broken = await post(text.replace('"m40"}', '"m40"')); // the 41st message never closes
    expect(broken.status).toBe(400);
    expect(broken.body._tag).toBe('InvalidRequestError');
    expect(await stored(cut)).toBe(0);

    const scalar = await post(
      body([
        ['info', fullInfo(sessionId(), home)],
        ['messages', 3],
      ]),
    );
    expect(scalar).toEqual({
      status: 400,
      body: expect.objectContaining({ _tag: 'InvalidRequestError', field: 'messages' }),
    });
    const stranger = await post(
      body([
        ['info', fullInfo(sessionId(), home)],
        ['messages', []],
        ['extra', 1],
      ]),
    );
    expect(stranger).toEqual({
      status: 400,
      body: expect.objectContaining({ _tag: 'InvalidRequestError', field: 'extra' }),
    });
  });

  it('answers 413 naming OUTPOST_IMPORT_BODY_LIMIT past the limit, declared or streamed, storing nothing', async () => {
    const id = sessionId();
    const big = Array.from({ length: 2000 }, (_, i) => ({
      id: msgId(),
      type: 'user',
      time: { created: 1000 + i },
      text: 'x'.repeat(600),
    }));
    const text = body([
      ['info', fullInfo(id, home)],
      ['messages', big],
    ]);
    expect(Buffer.byteLength(text)).toBeGreaterThan(LIMIT);
    for (const size of [0, 16 * 1024]) {
      const res = await post(text, { size });
      expect(res.status).toBe(413);
      expect(res.body).toMatchObject({
        _tag: 'PayloadTooLargeError',
        message: `Request body is larger than the limit of ${LIMIT} bytes (OUTPOST_IMPORT_BODY_LIMIT)`,
      });
      expect(await stored(id)).toBe(0);
    }
  });

  it('keeps no temporary file of a body once its import is answered, taken or refused', async () => {
    const spooled = () => readdirSync(tmpdir()).filter((name) => name.startsWith('outpost-body-'));
    const before = new Set(spooled());
    const good = await post(
      body([
        ['info', fullInfo(sessionId(), home)],
        ['messages', fullMessages()],
      ]),
    );
    expect(good.status).toBe(200);
    const bad = await post(
      body([
        ['info', fullInfo(sessionId(), home)],
        ['messages', [{ id: 1 }]],
      ]),
    );
    expect(bad.status).toBe(400);
    const left = await eventually(
      async () => spooled().filter((name) => !before.has(name)),
      (names) => names.length === 0,
    );
    expect(left).toEqual([]);
  });

  it('reads nothing past the default limit for a caller without valid credentials', async () => {
    const res = await post(
      body([
        ['info', fullInfo(sessionId(), home)],
        [
          'messages',
          Array.from({ length: 300 }, () => ({ id: msgId(), type: 'user', text: 'y'.repeat(300) })),
        ],
      ]),
      { auth: basic('wrong password') },
    );
    expect(res.status).toBe(401);
  });
});
