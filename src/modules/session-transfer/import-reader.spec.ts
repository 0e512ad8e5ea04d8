import { InvalidRequestError } from '@/common/errors';
import { ImportPart, ImportReader } from './import-reader';

/** Reads `text` cut into chunks of `size` bytes. */
function read(text: string, size: number): ImportPart[] {
  const bytes = Buffer.from(text);
  const reader = new ImportReader();
  const parts: ImportPart[] = [];
  for (let at = 0; at < bytes.length; at += size) parts.push(...reader.push(bytes.subarray(at, at + size)));
  reader.end();
  return parts;
}

/** What the reader finds, parsed: the members but `messages` by key, and the messages in order. */
function parsed(parts: ImportPart[]) {
  const members: Record<string, unknown> = {};
  const messages: unknown[] = [];
  for (const part of parts)
    if (part.kind === 'member' && part.key === 'messages' && part.text === '[]') continue;
    else if (part.kind === 'member') members[part.key] = JSON.parse(part.text);
    else {
      expect(part.index).toBe(messages.length);
      messages.push(JSON.parse(part.text));
    }
  return { members, messages };
}

const TRICKY = {
  info: { id: 'ses_1', title: 'quotes " and \\ backslashes \\" and braces { [ ] }', n: -1.5e3 },
  messages: [
    { id: 'a', text: 'ends in a backslash \\\\', parts: [{ t: '\\"}]' }, [], {}] },
    'a string element',
    42,
    true,
    null,
    { id: 'é ünïcode ☃ \u2028', nested: { deeper: [[[{ x: '\\u0041' }]]] } },
  ],
  location: { directory: '/tmp/x' },
  other: [1, 2, { '}': ']' }],
  last: false,
};

describe('ImportReader', () => {
  it.each([1, 2, 3, 7, 64, 1 << 20])(
    'splits a body into its members and messages whatever the chunk size (%i bytes)',
    (size) => {
      for (const text of [JSON.stringify(TRICKY), JSON.stringify(TRICKY, null, 2)]) {
        const { members, messages } = parsed(read(text, size));
        const { messages: expected, ...rest } = TRICKY;
        expect(messages).toEqual(expected);
        expect(members).toEqual(rest);
      }
    },
  );

  it('says when messages is an array, before its elements', () => {
    expect(read('{"messages":[{"a":1}]}', 2)).toEqual([
      { kind: 'member', key: 'messages', text: '[]' },
      { kind: 'message', index: 0, text: '{"a":1}' },
    ]);
  });

  it('reads empty objects and arrays, and members after messages', () => {
    expect(read('{}', 1)).toEqual([]);
    expect(parsed(read(' { "messages" : [ ] , "info" : {} } ', 1))).toEqual({
      members: { info: {} },
      messages: [],
    });
  });

  it('gives a scalar messages member to the caller as a member', () => {
    expect(parsed(read('{"messages":7}', 1))).toEqual({ members: { messages: 7 }, messages: [] });
  });

  it.each([
    ['[]', 'not a JSON object'],
    ['{"info":{}', 'ended before the object closed'],
    ['{"info":{} "x":1}', 'expected "," or "}"'],
    ['{"info" {}}', 'expected ":"'],
    ['{info:{}}', 'member name'],
    ['{"info":{},}', 'member name'],
    ['{"messages":[{} {}]}', 'expected "," or "]" after messages.0'],
    ['{"messages":[{},]}', ''],
    ['{} x', 'after the closing brace'],
    ['', 'ended before'],
  ])('refuses %s as malformed', (text, reason) => {
    let error: unknown;
    try {
      const parts = read(text, 3);
      for (const part of parts) JSON.parse(part.text);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeDefined();
    if (error instanceof InvalidRequestError) expect(error.message).toContain(reason);
  });
});
