import { InvalidRequestError } from '@/common/errors';

/**
 * What the body of an import holds, as it is read: a member of the top-level object, or an element of `messages`
 * (whose member comes first, as `[]`, when it is an array).
 */
export type ImportPart =
  { kind: 'member'; key: string; text: string } | { kind: 'message'; index: number; text: string };

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;

function isSpace(byte: number): boolean {
  return byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09;
}

/** Where the reader is in `{ "key": value, "messages": [ element, … ] }`, between values. */
type State =
  | 'start' // before the top-level `{`
  | 'first-key' // a member's key, or the `}` of an empty object
  | 'key' // a member's key (after a comma)
  | 'colon'
  | 'value'
  | 'after-value' // `,` or `}`
  | 'first-element' // after `[` of messages: an element or `]`
  | 'element' // after a comma in messages
  | 'after-element' // `,` or `]`
  | 'end';

function malformed(reason: string): InvalidRequestError {
  return new InvalidRequestError(`Malformed JSON body: ${reason}`, undefined, 'Body');
}

/**
 * Splits an import's JSON body into its top-level members and the elements of its `messages` array as the bytes
 * come, each as its own JSON text, for the caller to parse with the native parser (which is what makes this fast):
 * memory holds one value at a time, whatever the body's size. The structure between values is checked here
 * (braces, brackets, commas, colons); what is inside a value is left to its parse.
 */
export class ImportReader {
  private state: State = 'start';
  private key = '';
  private index = 0;
  /** The value being read, if any: what it is read as, its bytes so far, and where the scan of them stands. */
  private reads?: 'key' | 'member' | 'element';
  private parts: Buffer[] = [];
  private from = 0;
  private depth = 0;
  private inString = false;
  private escaped = false;
  /** A number, `true`, `false` or `null`: it ends at the next delimiter. */
  private scalar = false;
  /** The `[` of `messages` was just read. */
  private opened = false;
  /** The next backslash in the chunk at or after the scan (-1: none; -2: not looked for yet). */
  private backslashAt = -2;

  /** The parts this chunk completes. */
  push(chunk: Buffer): ImportPart[] {
    const found: ImportPart[] = [];
    this.backslashAt = -2;
    let at = 0;
    while (at < chunk.length) {
      if (!this.reads) {
        const byte = chunk[at];
        if (!isSpace(byte) && this.structure(byte)) this.begin(byte, at);
        if (this.opened) {
          // `messages` is an array: said at once, its elements follow one by one.
          found.push({ kind: 'member', key: 'messages', text: '[]' });
          this.opened = false;
        }
        at++;
        continue;
      }
      const end = this.scan(chunk, at);
      if (end === -1) break;
      this.parts.push(chunk.subarray(this.from, end));
      const part = this.completed();
      if (part) found.push(part);
      at = end;
    }
    if (this.reads) this.parts.push(chunk.subarray(this.from));
    this.from = 0;
    return found;
  }

  /** The body has ended: anything but one complete object is malformed. */
  end(): void {
    if (this.state !== 'end') throw malformed('the body ended before the object closed');
  }

  /** One byte between values: true when a value begins with it. */
  private structure(byte: number): boolean {
    switch (this.state) {
      case 'start':
        if (byte !== OPEN_OBJECT) throw malformed('the body is not a JSON object');
        this.state = 'first-key';
        return false;
      case 'first-key':
      case 'key':
        if (byte === CLOSE_OBJECT && this.state === 'first-key') {
          this.state = 'end';
          return false;
        }
        if (byte !== QUOTE) throw malformed('expected a member name in double quotes');
        this.reads = 'key';
        return true;
      case 'colon':
        if (byte !== COLON) throw malformed(`expected ":" after "${this.key}"`);
        this.state = 'value';
        return false;
      case 'value':
        if (this.key === 'messages' && byte === OPEN_ARRAY) {
          this.state = 'first-element';
          this.opened = true;
          return false;
        }
        this.reads = 'member';
        return true;
      case 'after-value':
        if (byte === COMMA) this.state = 'key';
        else if (byte === CLOSE_OBJECT) this.state = 'end';
        else throw malformed(`expected "," or "}" after the value of "${this.key}"`);
        return false;
      case 'first-element':
      case 'element':
        if (byte === CLOSE_ARRAY && this.state === 'first-element') {
          this.state = 'after-value';
          return false;
        }
        this.reads = 'element';
        return true;
      case 'after-element':
        if (byte === COMMA) this.state = 'element';
        else if (byte === CLOSE_ARRAY) this.state = 'after-value';
        else throw malformed(`expected "," or "]" after messages.${this.index - 1}`);
        return false;
      case 'end':
        throw malformed('text after the closing brace');
    }
  }

  /** A value begins at `at` with `byte`. */
  private begin(byte: number, at: number): void {
    this.parts = [];
    this.from = at;
    this.inString = byte === QUOTE;
    this.depth = byte === OPEN_OBJECT || byte === OPEN_ARRAY ? 1 : 0;
    this.scalar = !this.inString && this.depth === 0;
    this.escaped = false;
  }

  /** The value ended: a part for the caller, or nothing (a key). */
  private completed(): ImportPart | undefined {
    const text =
      this.parts.length === 1 ? this.parts[0].toString('utf8') : Buffer.concat(this.parts).toString('utf8');
    const reads = this.reads;
    this.parts = [];
    this.reads = undefined;
    if (reads === 'key') {
      try {
        this.key = JSON.parse(text) as string;
      } catch {
        throw malformed(`a member name is not a valid string: ${text.slice(0, 40)}`);
      }
      this.state = 'colon';
      return undefined;
    }
    if (reads === 'element') {
      this.state = 'after-element';
      return { kind: 'message', index: this.index++, text };
    }
    this.state = 'after-value';
    return { kind: 'member', key: this.key, text };
  }

  /**
   * Scans the value being read from `at` (its first byte was read by `begin`): the index after its last byte in
   * this chunk, or -1 when it goes on into the next. Strings are skipped with `indexOf`, which keeps this fast.
   */
  private scan(chunk: Buffer, at: number): number {
    let i = at;
    while (i < chunk.length) {
      if (this.inString) {
        if (this.escaped) {
          this.escaped = false; // the escaped byte (a `\u` escape's hex digits need no care)
          i++;
          continue;
        }
        const quote = chunk.indexOf(QUOTE, i);
        const stop = quote === -1 ? chunk.length : quote;
        if (this.backslashAt !== -1 && this.backslashAt < i) this.backslashAt = chunk.indexOf(BACKSLASH, i);
        if (this.backslashAt !== -1 && this.backslashAt < stop) {
          this.escaped = true;
          i = this.backslashAt + 1;
          continue;
        }
        if (quote === -1) return -1;
        this.inString = false;
        i = quote + 1;
        if (this.depth === 0) return i; // a string value ends with its quote
        continue;
      }
      const byte = chunk[i];
      if (this.scalar) {
        if (byte === COMMA || byte === CLOSE_OBJECT || byte === CLOSE_ARRAY || isSpace(byte)) return i;
      } else if (byte === QUOTE) this.inString = true;
      else if (byte === OPEN_OBJECT || byte === OPEN_ARRAY) this.depth++;
      else if (byte === CLOSE_OBJECT || byte === CLOSE_ARRAY) {
        this.depth--;
        if (this.depth === 0) return i + 1;
      }
      i++;
    }
    return -1;
  }
}
