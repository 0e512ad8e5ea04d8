import { Injectable, Logger } from '@nestjs/common';
import type {
  LanguageModelV3FunctionTool,
  LanguageModelV3StreamPart,
  LanguageModelV3ToolCall,
  LanguageModelV3Usage,
  SharedV3ProviderOptions,
} from '@ai-sdk/provider';
import { APICallError, LoadAPIKeyError } from 'ai';
import { Clock } from '@/common/clock';
import {
  FinishReason,
  ProviderState,
  RetryPolicy,
  StepError,
  StepRequest,
  StepResult,
  StepTokens,
  StepToolCall,
  ToolSpec,
} from './step.types';

/** The step error type of a prompt larger than the model's context: the agent loop compacts and tries again. */
export const CONTEXT_OVERFLOW_ERROR = 'ContextOverflowError';

export const DEFAULT_RETRY_POLICY: RetryPolicy = { maxRetries: 4, baseDelayMs: 2_000, maxDelayMs: 30_000 };

type StreamPart = LanguageModelV3StreamPart;

/** What one attempt has read from the provider's stream so far. */
interface Reading {
  partial: Omit<StepResult, 'attempts'>;
  /** Provider state of each reasoning part (signatures), merged across its deltas. */
  reasoning: Map<string, ProviderState | undefined>;
  failure?: { error: unknown };
  finished: boolean;
  output: boolean;
}

type Attempt =
  | { kind: 'done'; result: Omit<StepResult, 'attempts'> }
  | { kind: 'error'; error: unknown; partial: Omit<StepResult, 'attempts'> }
  | { kind: 'interrupted'; partial: Omit<StepResult, 'attempts'> };

/**
 * Runs ONE streaming provider turn, calling the provider model's `doStream` with a prompt already in its shape
 * (`streamText` would validate and convert the whole history again at every step; compatibility warnings go to
 * our log at debug level). Tools are offered as JSON schemas without `execute`, so the step ends when
 * the model asks for tools and the agent loop runs them under its permission rules. Retryable failures (429,
 * 5xx, connection errors) are retried with exponential backoff, honouring `Retry-After`; each retry is reported
 * through `onRetry` before the wait, and events streamed by a failed attempt should be discarded by the caller.
 */
@Injectable()
export class ModelStep {
  private readonly logger = new Logger('ModelStep');

  constructor(private readonly clock: Clock) {}

  async run(request: StepRequest, policy: RetryPolicy = DEFAULT_RETRY_POLICY): Promise<StepResult> {
    for (let attempt = 1; ; attempt++) {
      const outcome = await this.attempt(request);
      if (outcome.kind === 'done') return { ...outcome.result, attempts: attempt };
      if (outcome.kind === 'interrupted') return { ...outcome.partial, attempts: attempt };
      const error = describe(outcome.error, request.model.provider);
      if (!isRetryable(outcome.error) || attempt > policy.maxRetries) {
        return { ...outcome.partial, status: 'failed', finish: 'error', error, attempts: attempt };
      }
      const delayMs = retryDelay(outcome.error, attempt, policy, this.clock.now());
      request.onRetry?.({ attempt, at: this.clock.now() + delayMs, delayMs, error });
      if (!(await wait(delayMs, request.signal))) {
        return { ...outcome.partial, status: 'interrupted', finish: 'unknown', attempts: attempt };
      }
    }
  }

  private async attempt(request: StepRequest): Promise<Attempt> {
    const partial: Omit<StepResult, 'attempts'> = {
      status: 'completed',
      finish: 'unknown',
      text: '',
      reasoning: '',
      toolCalls: [],
      tokens: emptyTokens(),
    };
    const interrupted = (): Attempt => ({
      kind: 'interrupted',
      partial: { ...partial, status: 'interrupted', finish: 'unknown' },
    });
    if (request.signal?.aborted) return interrupted();

    const reading: Reading = { partial, reasoning: new Map(), finished: false, output: false };
    const tools = request.tools ?? [];
    try {
      const { stream } = await request.model.doStream({
        prompt:
          request.system === undefined
            ? request.messages
            : [{ role: 'system', content: request.system }, ...request.messages],
        ...(tools.length > 0 ? { tools: tools.map(toFunctionTool), toolChoice: { type: 'auto' } } : {}),
        ...(request.maxOutputTokens === undefined ? {} : { maxOutputTokens: request.maxOutputTokens }),
        headers: request.headers,
        providerOptions: request.providerOptions as SharedV3ProviderOptions | undefined,
        abortSignal: request.signal,
        includeRawChunks: false,
      });
      for await (const part of stream) this.read(part, reading, request);
    } catch (error) {
      reading.failure = { error };
    }
    if (request.signal?.aborted) return interrupted();
    const { failure, finished, output } = reading;
    if (failure) return { kind: 'error', error: failure.error, partial };
    if (!finished && !output) return { kind: 'error', error: new Error(NO_OUTPUT), partial };
    return { kind: 'done', result: partial };
  }

  /** One part of the provider's stream: added to what the attempt read, and passed on as a step event. */
  private read(part: StreamPart, reading: Reading, request: StepRequest): void {
    const emit = request.onEvent ?? (() => {});
    const { partial } = reading;
    switch (part.type) {
      case 'stream-start':
        if (part.warnings.length > 0) {
          const { provider, modelId } = request.model;
          this.logger.debug({ provider, model: modelId, warnings: part.warnings });
        }
        break;
      case 'text-start':
      case 'text-end':
      case 'reasoning-start':
        reading.output = true;
        emit({ type: part.type, id: part.id });
        break;
      case 'reasoning-end': {
        const state = mergeState(reading.reasoning.get(part.id), part.providerMetadata);
        emit(state ? { type: 'reasoning-end', id: part.id, state } : { type: 'reasoning-end', id: part.id });
        break;
      }
      case 'text-delta':
        reading.output = true;
        if (part.delta === '') break;
        partial.text += part.delta;
        emit({ type: 'text-delta', id: part.id, text: part.delta });
        break;
      case 'reasoning-delta':
        reading.output = true;
        reading.reasoning.set(part.id, mergeState(reading.reasoning.get(part.id), part.providerMetadata));
        partial.reasoning += part.delta;
        emit({ type: 'reasoning-delta', id: part.id, text: part.delta });
        break;
      case 'tool-input-start':
        reading.output = true;
        emit({ type: 'tool-input-start', id: part.id, name: part.toolName });
        break;
      case 'tool-input-delta':
        emit({ type: 'tool-input-delta', id: part.id, delta: part.delta });
        break;
      case 'tool-call': {
        reading.output = true;
        const call = toolCall(part, request.tools ?? []);
        partial.toolCalls.push(call);
        emit({ type: 'tool-call', call });
        break;
      }
      case 'finish':
        reading.finished = true;
        partial.finish = finishReason(part.finishReason.unified);
        partial.tokens = tokens(part.usage);
        break;
      case 'error':
        reading.finished = true;
        reading.failure = { error: part.error };
        break;
      default:
        break; // tool input ends, response metadata, sources, files, raw chunks
    }
  }
}

const NO_OUTPUT = 'No output generated. The model stream ended without a finish chunk.';

/** A tool as the provider takes it: a function with a JSON schema, run by the agent loop, not the SDK. */
function toFunctionTool(spec: ToolSpec): LanguageModelV3FunctionTool {
  return {
    type: 'function',
    name: spec.name,
    description: spec.description,
    inputSchema: spec.inputSchema as LanguageModelV3FunctionTool['inputSchema'],
  };
}

/**
 * A call the model asked for, with its arguments parsed. Arguments that are not JSON, or a tool that was not
 * offered, make the call `invalid` (the loop answers it with an error the model sees), as `streamText` did.
 */
function toolCall(part: LanguageModelV3ToolCall, tools: ToolSpec[]): StepToolCall {
  const call: StepToolCall = { id: part.toolCallId, name: part.toolName, input: part.input };
  if (part.providerMetadata) call.providerState = part.providerMetadata as ProviderState;
  try {
    call.input = part.input.trim() === '' ? {} : JSON.parse(part.input);
  } catch (error) {
    call.invalid = `Invalid input for tool ${part.toolName}: JSON parsing failed: ${errorMessage(error)}`;
  }
  if (!tools.some((tool) => tool.name === part.toolName)) {
    const available = tools.map((tool) => tool.name).join(', ');
    call.invalid = `Model tried to call unavailable tool '${part.toolName}'. ${
      available ? `Available tools: ${available}.` : 'No tools are available.'
    }`;
  }
  return call;
}

/** Anthropic sends a thinking block's signature in a delta; keep every piece of metadata until the block ends. */
function mergeState(current: ProviderState | undefined, next: unknown): ProviderState | undefined {
  if (!next || typeof next !== 'object') return current;
  const merged: ProviderState = { ...(current ?? {}) };
  for (const [provider, values] of Object.entries(next as ProviderState)) {
    merged[provider] = { ...(merged[provider] ?? {}), ...values };
  }
  return merged;
}

function emptyTokens(): StepTokens {
  return { input: 0, output: 0, reasoning: 0, cache: { read: 0, write: 0 } };
}

function tokens(usage: LanguageModelV3Usage): StepTokens {
  const read = usage.inputTokens.cacheRead ?? 0;
  const write = usage.inputTokens.cacheWrite ?? 0;
  const input = usage.inputTokens.noCache ?? Math.max(0, (usage.inputTokens.total ?? 0) - read - write);
  return {
    input,
    output: usage.outputTokens.total ?? 0,
    reasoning: usage.outputTokens.reasoning ?? 0,
    cache: { read, write },
  };
}

function finishReason(reason: string): FinishReason {
  switch (reason) {
    case 'stop':
    case 'length':
    case 'tool-calls':
    case 'content-filter':
    case 'error':
      return reason;
    default:
      return 'unknown';
  }
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

const NETWORK_ERROR_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EAI_AGAIN',
  'UND_ERR_SOCKET',
  'UND_ERR_CONNECT_TIMEOUT',
]);

/**
 * The failed connection behind an error (`fetch failed` caused by `ECONNREFUSED`, ...). Read by shape, not
 * `instanceof`: the AI SDK only wraps errors of its own realm.
 */
function networkError(error: unknown): { code: string; message: string } | undefined {
  const seen = new Set<unknown>();
  for (let current = error; current && typeof current === 'object' && !seen.has(current);) {
    seen.add(current);
    const { code, message, cause } = current as { code?: unknown; message?: unknown; cause?: unknown };
    if (typeof code === 'string' && NETWORK_ERROR_CODES.has(code))
      return { code, message: String(message ?? code) };
    current = cause;
  }
  return undefined;
}

/** Error types that providers send inside a stream for a passing condition. */
const RETRYABLE_STREAM_ERRORS = new Set([
  'overloaded_error',
  'rate_limit_error',
  'api_error',
  'server_error',
]);

/** An error event inside the stream arrives as the provider's plain `{ type, message }` object. */
function streamError(error: unknown): { type: string; message: string } | undefined {
  if (!error || typeof error !== 'object' || error instanceof Error || 'stack' in error) return undefined;
  const { type, message } = error as { type?: unknown; message?: unknown };
  if (typeof message !== 'string') return undefined;
  return { type: typeof type === 'string' ? type : 'error', message };
}

/** A gateway's budget stop (Outpost's, or Zen's names): retrying cannot help until someone raises the limit. */
const BUDGET_STOP = /"(UserLimitError|WorkspaceLimitError|MonthlyLimitError)"/;

function budgetStop(error: unknown): string | undefined {
  if (!APICallError.isInstance(error) || (error.statusCode !== 402 && error.statusCode !== 429))
    return undefined;
  return BUDGET_STOP.exec(error.responseBody ?? '')?.[1];
}

function isRetryable(error: unknown): boolean {
  if (networkError(error)) return true;
  if (contextOverflow(error)) return false;
  if (budgetStop(error)) return false;
  const inStream = streamError(error);
  if (inStream) return RETRYABLE_STREAM_ERRORS.has(inStream.type);
  if (!APICallError.isInstance(error)) return false;
  const status = error.statusCode;
  if (status === undefined) return error.isRetryable; // connection refused, reset, ...
  return status === 429 || status >= 500;
}

/** What providers answer when the prompt does not fit the model's context (Anthropic, OpenAI, others). */
const CONTEXT_OVERFLOW =
  /prompt is too long|context[_ ]length|maximum context|context window|too many tokens|exceeds? the context|input is too long|reduce the length of the messages/i;

/** A refusal because the prompt is larger than the model's context (never worth retrying as it is). */
function contextOverflow(error: unknown): string | undefined {
  if (APICallError.isInstance(error)) {
    const status = error.statusCode;
    if (status !== undefined && status !== 400 && status !== 413) return undefined;
    const text = `${error.message} ${error.responseBody ?? ''}`;
    return CONTEXT_OVERFLOW.test(text) ? error.message : undefined;
  }
  const inStream = streamError(error);
  return inStream && CONTEXT_OVERFLOW.test(inStream.message)
    ? `${inStream.type}: ${inStream.message}`
    : undefined;
}

/**
 * Where a person fixes a provider that fails: its id (the AI SDK's `provider` is `<id>.chat` and the like) and the
 * address called, and the two places a provider is set.
 */
function whereToFix(provider: string, url: string | undefined): string {
  const id = provider.split('.')[0];
  return ` (provider "${id}"${url ? ` at ${url}` : ''}: check its base URL and key on the web app's Models page or in the location's opencode.json)`;
}

/**
 * The error as recorded on the assistant message (`{ type, message, status? }`); a provider's own failure (refused,
 * unreachable, no key) names the provider and where to fix it.
 */
function describe(error: unknown, provider: string): StepError {
  const overflow = contextOverflow(error);
  if (overflow) return { type: CONTEXT_OVERFLOW_ERROR, message: overflow };
  const stop = budgetStop(error);
  if (stop)
    return {
      type: stop,
      message: (error as APICallError).message,
      status: (error as APICallError).statusCode,
    };
  if (APICallError.isInstance(error)) {
    const status = error.statusCode;
    const type = status === 401 || status === 403 ? 'ProviderAuthError' : 'APIError';
    const message = error.message + whereToFix(provider, error.url);
    return { type, message, ...(status === undefined ? {} : { status }) };
  }
  if (LoadAPIKeyError.isInstance(error))
    return { type: 'ProviderAuthError', message: error.message + whereToFix(provider, undefined) };
  const network = networkError(error);
  if (network)
    return {
      type: 'APIError',
      message: `Cannot connect to the provider: ${network.message}${whereToFix(provider, undefined)}`,
    };
  const inStream = streamError(error);
  if (inStream) return { type: 'APIError', message: `${inStream.type}: ${inStream.message}` };
  return { type: 'UnknownError', message: errorMessage(error) };
}

/** `retry-after-ms` (OpenAI) or `retry-after` (seconds or an HTTP date), else exponential; capped either way. */
function retryDelay(error: unknown, attempt: number, policy: RetryPolicy, now: number): number {
  const exponential = policy.baseDelayMs * 2 ** (attempt - 1);
  const headers = APICallError.isInstance(error) ? (error.responseHeaders ?? {}) : {};
  const header = (name: string) => Object.entries(headers).find(([key]) => key.toLowerCase() === name)?.[1];
  let requested: number | undefined;
  const ms = Number(header('retry-after-ms'));
  const after = header('retry-after');
  if (header('retry-after-ms') !== undefined && Number.isFinite(ms)) requested = ms;
  else if (after !== undefined) {
    const seconds = Number(after);
    requested = Number.isFinite(seconds) ? seconds * 1000 : Date.parse(after) - now;
  }
  const delay =
    requested !== undefined && Number.isFinite(requested) && requested >= 0 ? requested : exponential;
  return Math.min(Math.round(delay), policy.maxDelayMs);
}

/** Sleeps unless the signal aborts first; resolves `false` on abort. */
function wait(ms: number, signal?: AbortSignal): Promise<boolean> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve(false);
    const onAbort = () => {
      clearTimeout(timer);
      resolve(false);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve(true);
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
