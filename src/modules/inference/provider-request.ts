import { InvalidInferenceRequestError } from './gateway.errors';
import type { CallSchema } from './gateway.config';

type Json = Record<string, unknown>;

/** Where one member's value sits in a JSON object's text: `text.slice(start, end)`. */
interface Span {
  start: number;
  end: number;
}

const QUOTE = 34;
const BACKSLASH = 92;

function skipSpace(text: string, i: number): number {
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if (c !== 32 && c !== 9 && c !== 10 && c !== 13) break;
    i++;
  }
  return i;
}

/** The index after the string that opens at `i` (its escapes skipped, its content not read). */
function stringEnd(text: string, i: number): number {
  for (let from = i + 1; ;) {
    const quote = text.indexOf('"', from);
    let slashes = 0;
    while (text.charCodeAt(quote - 1 - slashes) === BACKSLASH) slashes++;
    if (slashes % 2 === 0) return quote + 1;
    from = quote + 1;
  }
}

/** The index after the value that starts at `i`: strings are skipped with indexOf, containers by their depth. */
function valueEnd(text: string, i: number): number {
  const first = text.charCodeAt(i);
  if (first === QUOTE) return stringEnd(text, i);
  if (first !== 123 /* { */ && first !== 91 /* [ */) {
    while (i < text.length && !',}] \t\n\r'.includes(text[i])) i++;
    return i;
  }
  for (let depth = 0; ;) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      i = stringEnd(text, i);
      continue;
    }
    if (c === 123 || c === 91) depth++;
    else if ((c === 125 /* } */ || c === 93) /* ] */ && --depth === 0) return i + 1;
    i++;
  }
}

/**
 * Every occurrence of the top-level member `name` in a JSON object's text, which JSON.parse has accepted. Nested
 * values are skipped, not parsed, so this costs far less than serializing the object again.
 */
export function memberSpans(text: string, name: string): Span[] {
  const spans: Span[] = [];
  let i = skipSpace(text, 0) + 1;
  for (;;) {
    i = skipSpace(text, i);
    if (text.charCodeAt(i) !== QUOTE) return spans; // the closing brace
    const keyEnd = stringEnd(text, i);
    const key = text.slice(i + 1, keyEnd - 1);
    const start = skipSpace(text, skipSpace(text, keyEnd) + 1); // past the colon
    const end = valueEnd(text, start);
    // A key written with escapes (`"mod\u0065l"`) is read as JSON.parse reads it.
    if ((key.includes('\\') ? (JSON.parse(`"${key}"`) as string) : key) === name) spans.push({ start, end });
    i = skipSpace(text, end) + 1; // past the comma (or the closing brace, then the loop ends)
  }
}

/**
 * The provider's request for a call whose `body` was parsed from `text`: the model named by the provider's own id,
 * and a streamed chat asking for its usage (`stream_options.include_usage`). The caller's text is kept and only
 * those members are written into it; when it has the `model` member twice (JSON.parse keeps the last one, a
 * provider might keep the first), or without its text, the body is serialized again.
 */
export function providerRequest(
  schema: CallSchema,
  body: Json,
  text: string | undefined,
  upstreamModel: string,
  stream: boolean,
): string {
  const askUsage = (schema === 'openai-chat' || schema === 'openai-completions') && stream;
  const options = body.stream_options;
  const addUsage = askUsage && (options as Json | undefined)?.include_usage !== true;
  const models = text === undefined ? [] : memberSpans(text, 'model');
  if (text === undefined || models.length !== 1 || (addUsage && options !== undefined)) {
    return serialize({
      ...body,
      model: upstreamModel,
      ...(addUsage ? { stream_options: { ...(options as Json), include_usage: true } } : {}),
    });
  }
  let request = text;
  if (body.model !== upstreamModel) {
    const [{ start, end }] = models;
    request = `${request.slice(0, start)}${JSON.stringify(upstreamModel)}${request.slice(end)}`;
  }
  if (addUsage) {
    const close = request.lastIndexOf('}');
    request = `${request.slice(0, close)},"stream_options":{"include_usage":true}${request.slice(close)}`;
  }
  return request;
}

function serialize(payload: Json): string {
  try {
    return JSON.stringify(payload);
  } catch (error) {
    // A body nested past the call stack's depth (JSON.parse takes any depth; JSON.stringify recurses).
    if (error instanceof RangeError) throw new InvalidInferenceRequestError('body', 'nests too deeply');
    throw error;
  }
}

/**
 * The output limit the gateway set for a request that had none (so its spend cannot pass its hold), written into
 * the provider's request text as the member the schema reads: `max_output_tokens` (Responses), `max_tokens`
 * (chat and Anthropic; OpenAI's own API reads `max_completion_tokens`).
 */
export function withOutputLimit(
  payload: string,
  schema: CallSchema,
  baseUrl: string,
  tokens: number,
): string {
  const member =
    schema === 'openai-responses'
      ? 'max_output_tokens'
      : schema === 'openai-chat' && /^https:\/\/api\.openai\.com(\/|$)/.test(baseUrl)
        ? 'max_completion_tokens'
        : 'max_tokens';
  const close = payload.lastIndexOf('}');
  return `${payload.slice(0, close)},${JSON.stringify(member)}:${tokens}${payload.slice(close)}`;
}
