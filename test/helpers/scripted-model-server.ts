import { answerOther, OtherEndpoint, otherEndpoint } from './scripted-endpoints';
import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';

/** One tool call the scripted model asks for. `arguments` overrides the JSON text sent (e.g. to send broken JSON). */
export interface ScriptedToolCall {
  id?: string;
  name: string;
  input?: Record<string, unknown>;
  arguments?: string;
}

export interface ScriptedUsage {
  input: number;
  output: number;
  cacheRead?: number;
  cacheWrite?: number;
  reasoning?: number;
}

/** A successful streamed answer. */
export interface ScriptedAnswer {
  /** Text, sent as one delta per array element. */
  text?: string | string[];
  reasoning?: string | string[];
  toolCalls?: ScriptedToolCall[];
  usage?: ScriptedUsage;
  /** Defaults to `tool_calls` when there are tool calls, else `stop`. */
  finish?: 'stop' | 'tool_calls' | 'length';
  /** Wait this long before the response starts. */
  delayMs?: number;
  /** After the text deltas, send an error event in the stream (Anthropic `overloaded_error`, ...) and end. */
  streamError?: { type: string; message: string };
  /** Send the text deltas, then hold the stream open until the client goes away (for interrupts). */
  hold?: boolean;
  /** Send the text deltas (or, unstreamed, nothing), then wait for this before finishing the answer (or for the
   * client to go away). */
  until?: Promise<unknown>;
}

/** An HTTP error answer: 500, 429 with `Retry-After`, ... */
export interface ScriptedError {
  status: number;
  message?: string;
  headers?: Record<string, string>;
  delayMs?: number;
}

export type ScriptedTurn = ScriptedAnswer | { error: ScriptedError };

type Protocol = 'openai' | 'responses' | 'anthropic' | OtherEndpoint;

export interface RecordedRequest {
  protocol: Protocol;
  path: string;
  headers: IncomingMessage['headers'];
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read the JSON body freely
  body: any;
}

/**
 * A model provider on loopback that speaks OpenAI chat-completions (`POST /v1/chat/completions`), OpenAI's
 * Responses API (`POST /v1/responses`, text only) and Anthropic messages (`POST /v1/messages`), streamed or not. Each request takes the next scripted turn; every request
 * is recorded so tests can assert on what the server under test sent.
 */
export class ScriptedModelServer {
  readonly requests: RecordedRequest[] = [];
  /** Calls of the hidden `title` agent (recognised by its prompt), kept out of `requests`. */
  readonly titleRequests: RecordedRequest[] = [];
  private readonly titleTurns: ScriptedTurn[] = [];
  /** Answer requests that do not ask for a stream with one JSON body (the agent loop always streams). */
  answerUnstreamed = true;
  private readonly turns: ScriptedTurn[] = [];
  private readonly waiters: Array<{ count: number; resolve: () => void }> = [];
  private server?: Server;
  url = '';

  static async start(): Promise<ScriptedModelServer> {
    const scripted = new ScriptedModelServer();
    await scripted.listen();
    return scripted;
  }

  /** The base URL providers are configured with (`…/v1`). */
  get baseURL(): string {
    return `${this.url}/v1`;
  }

  script(...turns: ScriptedTurn[]): this {
    this.turns.push(...turns);
    return this;
  }

  /** Answers for the next title calls (without one, a title call gets "Scripted title"). */
  scriptTitle(...turns: ScriptedTurn[]): this {
    this.titleTurns.push(...turns);
    return this;
  }

  /** Forgets the turns scripted but not consumed. */
  dropPending(): void {
    this.turns.length = 0;
  }

  /** Turns scripted but not yet consumed. */
  get pending(): number {
    return this.turns.length;
  }

  /** The answer once the script has run out (else a 500): for tests that send unscripted traffic. */
  fallback: ScriptedTurn | undefined;

  /** Resolves once `count` requests in total have arrived. */
  waitForRequests(count: number): Promise<void> {
    if (this.requests.length >= count) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push({ count, resolve }));
  }

  async close(): Promise<void> {
    const server = this.server;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  private async listen(): Promise<void> {
    this.server = createServer((req, res) => {
      void this.handle(req, res).catch((error: unknown) => {
        if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { message: String(error) } }));
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server!.address() as AddressInfo).port}`;
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const raw = await readBody(req);
    const path = (req.url ?? '').split('?')[0];
    const protocol: Protocol | null = otherEndpoint(path)
      ? otherEndpoint(path)
      : path.endsWith('/chat/completions')
        ? 'openai'
        : path.endsWith('/responses')
          ? 'responses'
          : path.endsWith('/messages')
            ? 'anthropic'
            : null;
    if (req.method !== 'POST' || !protocol) {
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":{"message":"not found"}}');
      return;
    }
    let body: RecordedRequest['body'] = raw;
    try {
      body = JSON.parse(raw);
    } catch {}
    let turn: ScriptedTurn | undefined;
    if (isTitleCall(body)) {
      // Session titles are generated beside the agent loop: answered apart, so scripted turns stay in order.
      this.titleRequests.push({ protocol, path, headers: req.headers, body });
      turn = this.titleTurns.shift() ?? { text: 'Scripted title' };
    } else {
      this.requests.push({ protocol, path, headers: req.headers, body });
      for (const waiter of this.waiters.filter((w) => this.requests.length >= w.count)) {
        this.waiters.splice(this.waiters.indexOf(waiter), 1);
        waiter.resolve();
      }
      turn = this.turns.shift() ?? this.fallback;
    }
    if (!turn) {
      sendError(res, protocol, { status: 500, message: 'the scripted model server has no turn left' });
      return;
    }
    if ('error' in turn) {
      if (turn.error.delayMs) await sleep(turn.error.delayMs);
      sendError(res, protocol, turn.error);
      return;
    }
    if (turn.delayMs) await sleep(turn.delayMs);
    if (protocol === 'embeddings' || protocol === 'completions' || protocol === 'count_tokens') {
      await answerOther(res, protocol, turn, (body ?? {}) as Record<string, unknown>);
      return;
    }
    if (body?.stream !== true && (body?.stream === false || this.answerUnstreamed)) {
      if (turn.until && !(await released(res, turn.until))) return;
      answerWhole(res, protocol, turn, typeof body?.model === 'string' ? body.model : 'scripted');
      return;
    }
    res.writeHead(200, {
      'content-type': 'text/event-stream',
      'cache-control': 'no-cache',
      connection: 'keep-alive',
    });
    const model = typeof body?.model === 'string' ? body.model : 'scripted';
    if (protocol === 'openai') await streamOpenAI(res, turn, model);
    else if (protocol === 'responses') await streamResponses(res, turn, model);
    else await streamAnthropic(res, turn, model);
  }
}

/** The title agent's prompt starts so (src/modules/agents/builtin-agents.ts). */
const TITLE_PROMPT_START = 'You write the title of a conversation';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- request bodies of three protocols
function isTitleCall(body: any): boolean {
  if (!body || typeof body !== 'object') return false;
  const system =
    typeof body.system === 'string'
      ? body.system
      : Array.isArray(body.system)
        ? body.system.map((part: { text?: string }) => part.text ?? '').join('')
        : typeof body.instructions === 'string'
          ? body.instructions
          : Array.isArray(body.messages)
            ? (body.messages.find((m: { role?: string }) => m.role === 'system')?.content ?? '')
            : '';
  return typeof system === 'string' && system.startsWith(TITLE_PROMPT_START);
}

/** A whole (non-streamed) answer: OpenAI's `chat.completion` or Anthropic's `message`, with usage. */
function answerWhole(res: ServerResponse, protocol: Protocol, turn: ScriptedAnswer, model: string): void {
  const text = pieces(turn.text).join('');
  const usage = turn.usage ?? { input: 0, output: 0 };
  const body =
    protocol === 'responses'
      ? responseObject(model, text, usage)
      : protocol === 'openai'
        ? {
            id: 'chatcmpl-scripted',
            object: 'chat.completion',
            created: 1,
            model,
            choices: [
              {
                index: 0,
                message: { role: 'assistant', content: text },
                finish_reason: turn.finish ?? 'stop',
              },
            ],
            usage: {
              prompt_tokens: usage.input + (usage.cacheRead ?? 0),
              completion_tokens: usage.output,
              total_tokens: usage.input + (usage.cacheRead ?? 0) + usage.output,
              prompt_tokens_details: { cached_tokens: usage.cacheRead ?? 0 },
            },
          }
        : {
            id: 'msg_scripted',
            type: 'message',
            role: 'assistant',
            model,
            content: [{ type: 'text', text }],
            stop_reason: 'end_turn',
            stop_sequence: null,
            usage: {
              input_tokens: usage.input,
              output_tokens: usage.output,
              cache_read_input_tokens: usage.cacheRead ?? 0,
              cache_creation_input_tokens: usage.cacheWrite ?? 0,
            },
          };
  res
    .writeHead(200, { 'content-type': 'application/json', 'x-upstream-secret-header': 'leak' })
    .end(JSON.stringify(body));
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let data = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (data += chunk));
    req.on('end', () => resolve(data));
    req.on('error', reject);
  });
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function sendError(res: ServerResponse, protocol: Protocol, error: ScriptedError): void {
  const message = error.message ?? `scripted error ${error.status}`;
  const body =
    protocol !== 'anthropic' && protocol !== 'count_tokens'
      ? {
          error: { message, type: error.status === 429 ? 'rate_limit_exceeded' : 'server_error', code: null },
        }
      : {
          type: 'error',
          error: { type: error.status === 429 ? 'rate_limit_error' : 'api_error', message },
        };
  res.writeHead(error.status, { 'content-type': 'application/json', ...(error.headers ?? {}) });
  res.end(JSON.stringify(body));
}

function pieces(value: string | string[] | undefined): string[] {
  if (value === undefined) return [];
  return Array.isArray(value) ? value : [value];
}

/** Splits JSON text in two so the client has to join argument deltas. */
function split(text: string): string[] {
  if (text.length < 2) return [text];
  const middle = Math.floor(text.length / 2);
  return [text.slice(0, middle), text.slice(middle)];
}

function toolArguments(call: ScriptedToolCall): string {
  return call.arguments ?? JSON.stringify(call.input ?? {});
}

/** Resolves when the client closes the connection (used by `hold`). */
function closed(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    if (res.destroyed || res.writableEnded) resolve();
    res.on('close', () => resolve());
  });
}

/** Waits for `until`; false when the client went away first. */
async function released(res: ServerResponse, until: Promise<unknown>): Promise<boolean> {
  await Promise.race([until, closed(res)]);
  return !res.destroyed && !res.writableEnded;
}

async function streamOpenAI(res: ServerResponse, turn: ScriptedAnswer, model: string): Promise<void> {
  const id = 'chatcmpl-scripted';
  const created = Math.floor(Date.now() / 1000);
  const chunk = (choice: Record<string, unknown> | null, extra: Record<string, unknown> = {}) =>
    res.write(
      `data: ${JSON.stringify({
        id,
        object: 'chat.completion.chunk',
        created,
        model,
        choices: choice ? [{ index: 0, ...choice }] : [],
        ...extra,
      })}\n\n`,
    );

  chunk({ delta: { role: 'assistant', content: '' }, finish_reason: null });
  for (const piece of pieces(turn.reasoning))
    chunk({ delta: { reasoning_content: piece }, finish_reason: null });
  const text = pieces(turn.text);
  for (const piece of text) chunk({ delta: { content: piece }, finish_reason: null });
  if (turn.streamError) {
    res.end(`data: ${JSON.stringify({ error: { ...turn.streamError, code: null } })}\n\n`);
    return;
  }
  if (turn.hold) {
    await closed(res);
    return;
  }
  if (turn.until && !(await released(res, turn.until))) return;
  const calls = turn.toolCalls ?? [];
  calls.forEach((call, index) => {
    const callId = call.id ?? `call_${index + 1}`;
    chunk({
      delta: {
        tool_calls: [{ index, id: callId, type: 'function', function: { name: call.name, arguments: '' } }],
      },
      finish_reason: null,
    });
    for (const part of split(toolArguments(call))) {
      chunk({ delta: { tool_calls: [{ index, function: { arguments: part } }] }, finish_reason: null });
    }
  });
  const finish = turn.finish ?? (calls.length > 0 ? 'tool_calls' : 'stop');
  chunk({ delta: {}, finish_reason: finish });
  const usage = turn.usage ?? { input: 0, output: 0 };
  chunk(null, {
    usage: {
      prompt_tokens: usage.input + (usage.cacheRead ?? 0),
      completion_tokens: usage.output,
      total_tokens: usage.input + (usage.cacheRead ?? 0) + usage.output,
      prompt_tokens_details: { cached_tokens: usage.cacheRead ?? 0 },
      completion_tokens_details: { reasoning_tokens: usage.reasoning ?? 0 },
    },
  });
  res.end('data: [DONE]\n\n');
}

async function streamAnthropic(res: ServerResponse, turn: ScriptedAnswer, model: string): Promise<void> {
  const event = (type: string, data: Record<string, unknown>) =>
    res.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
  const usage = turn.usage ?? { input: 0, output: 0 };

  event('message_start', {
    message: {
      id: 'msg_scripted',
      type: 'message',
      role: 'assistant',
      model,
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: {
        input_tokens: usage.input,
        output_tokens: 1,
        cache_read_input_tokens: usage.cacheRead ?? 0,
        cache_creation_input_tokens: usage.cacheWrite ?? 0,
      },
    },
  });
  let index = 0;
  const reasoning = pieces(turn.reasoning);
  if (reasoning.length > 0) {
    event('content_block_start', { index, content_block: { type: 'thinking', thinking: '' } });
    for (const piece of reasoning) {
      event('content_block_delta', { index, delta: { type: 'thinking_delta', thinking: piece } });
    }
    event('content_block_delta', {
      index,
      delta: { type: 'signature_delta', signature: 'scripted-signature' },
    });
    event('content_block_stop', { index });
    index++;
  }
  const text = pieces(turn.text);
  if (text.length > 0) {
    event('content_block_start', { index, content_block: { type: 'text', text: '' } });
    for (const piece of text) {
      event('content_block_delta', { index, delta: { type: 'text_delta', text: piece } });
    }
    if (turn.streamError) {
      event('error', { error: turn.streamError });
      res.end();
      return;
    }
    if (turn.hold) {
      await closed(res);
      return;
    }
    if (turn.until && !(await released(res, turn.until))) return;
    event('content_block_stop', { index });
    index++;
  }
  const calls = turn.toolCalls ?? [];
  calls.forEach((call, i) => {
    event('content_block_start', {
      index,
      content_block: { type: 'tool_use', id: call.id ?? `toolu_${i + 1}`, name: call.name, input: {} },
    });
    for (const part of split(toolArguments(call))) {
      event('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: part } });
    }
    event('content_block_stop', { index });
    index++;
  });
  const finish = turn.finish ?? (calls.length > 0 ? 'tool_calls' : 'stop');
  const stopReason = finish === 'tool_calls' ? 'tool_use' : finish === 'length' ? 'max_tokens' : 'end_turn';
  event('message_delta', {
    delta: { stop_reason: stopReason, stop_sequence: null },
    usage: { output_tokens: usage.output },
  });
  event('message_stop', {});
  res.end();
}

/** A Responses API `response` object, completed, with one text message and usage. */
function responseObject(model: string, text: string, usage: ScriptedUsage, status = 'completed') {
  return {
    id: 'resp_scripted',
    object: 'response',
    created_at: 1,
    status,
    model,
    output: [
      {
        type: 'message',
        id: 'msg_scripted',
        status,
        role: 'assistant',
        content: [{ type: 'output_text', text, annotations: [] }],
      },
    ],
    usage: {
      input_tokens: usage.input + (usage.cacheRead ?? 0),
      input_tokens_details: { cached_tokens: usage.cacheRead ?? 0 },
      output_tokens: usage.output,
      output_tokens_details: { reasoning_tokens: usage.reasoning ?? 0 },
      total_tokens: usage.input + (usage.cacheRead ?? 0) + usage.output,
    },
  };
}

/** The Responses API's typed events (`event:` and `data:` lines), text deltas, then `response.completed`. */
async function streamResponses(res: ServerResponse, turn: ScriptedAnswer, model: string): Promise<void> {
  let sequence = 0;
  const send = (type: string, data: Record<string, unknown>) =>
    res.write(`event: ${type}\ndata: ${JSON.stringify({ type, sequence_number: sequence++, ...data })}\n\n`);
  const inProgress = { ...responseObject(model, '', { input: 0, output: 0 }, 'in_progress'), output: [] };
  send('response.created', { response: inProgress });
  const item = { type: 'message', id: 'msg_scripted', status: 'in_progress', role: 'assistant', content: [] };
  send('response.output_item.added', { output_index: 0, item });
  send('response.content_part.added', {
    item_id: item.id,
    output_index: 0,
    content_index: 0,
    part: { type: 'output_text', text: '', annotations: [] },
  });
  for (const delta of pieces(turn.text)) {
    send('response.output_text.delta', { item_id: item.id, output_index: 0, content_index: 0, delta });
  }
  if (turn.until && !(await released(res, turn.until))) return;
  if (turn.hold) return void (await closed(res));
  const text = pieces(turn.text).join('');
  send('response.output_text.done', { item_id: item.id, output_index: 0, content_index: 0, text });
  send('response.completed', {
    response: responseObject(model, text, turn.usage ?? { input: 0, output: 0 }),
  });
  res.end();
}
