/**
 * The scripted model provider the tests talk to: the server, its script and what it recorded. The wire formats live
 * beside it (scripted-openai, scripted-responses, scripted-anthropic, scripted-endpoints), the turns in scripted-turns.
 */
import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';
import { anthropicError, anthropicMessage, streamAnthropic } from './scripted-anthropic';
import { answerOther, OtherEndpoint, otherEndpoint } from './scripted-endpoints';
import { chatCompletion, openAIError, streamOpenAI } from './scripted-openai';
import { responseObject, streamResponses } from './scripted-responses';
import { pieces, released, ScriptedAnswer, ScriptedError, ScriptedTurn } from './scripted-turns';

export type { ScriptedTurn } from './scripted-turns';

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

  private unanswered = 0;
  private readonly answeredWaiters: Array<() => void> = [];

  /** The answer once the script has run out (else a 500): for tests that send unscripted traffic. */
  fallback: ScriptedTurn | undefined;

  /** Resolves once `count` requests in total have arrived. */
  waitForRequests(count: number): Promise<void> {
    if (this.requests.length >= count) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push({ count, resolve }));
  }

  /** Resolves once every request received so far has its answer sent (or its connection closed). */
  answeredAll(): Promise<void> {
    if (this.unanswered === 0) return Promise.resolve();
    return new Promise((resolve) => this.answeredWaiters.push(resolve));
  }

  async close(): Promise<void> {
    const server = this.server;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  private async listen(): Promise<void> {
    this.server = createServer((req, res) => {
      this.unanswered++;
      res.on('close', () => {
        if (--this.unanswered > 0) return;
        for (const resolve of this.answeredWaiters.splice(0)) resolve();
      });
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
            ? (body.messages.find((m: { role?: string }) => m.role === 'system' || m.role === 'developer')
                ?.content ?? '')
            : Array.isArray(body.input)
              ? (body.input.find((m: { role?: string }) => m.role === 'system' || m.role === 'developer')
                  ?.content ?? '')
              : '';
  return typeof system === 'string' && system.startsWith(TITLE_PROMPT_START);
}

/** A whole (non-streamed) answer: OpenAI's `chat.completion` or `response`, or Anthropic's `message`, with usage. */
function answerWhole(res: ServerResponse, protocol: Protocol, turn: ScriptedAnswer, model: string): void {
  const text = pieces(turn.text).join('');
  const usage = turn.usage ?? { input: 0, output: 0 };
  const body =
    protocol === 'responses'
      ? responseObject(model, text, usage)
      : protocol === 'openai'
        ? chatCompletion(model, text, usage, turn.finish ?? 'stop')
        : anthropicMessage(model, text, usage);
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
      ? openAIError(error.status, message)
      : anthropicError(error.status, message);
  res.writeHead(error.status, { 'content-type': 'application/json', ...(error.headers ?? {}) });
  res.end(JSON.stringify(body));
}
