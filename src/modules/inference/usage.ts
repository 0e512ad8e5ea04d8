import { CatalogueModel, CallSchema } from './gateway.config';

/** Tokens of one request, as the provider reported them (or as counted from a stream cut short). */
export interface TokenUsage {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
}

export const NO_USAGE: TokenUsage = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 };

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** Usage from a complete (non-streamed) answer. */
export function usageOfAnswer(schema: CallSchema, body: Json): TokenUsage {
  const usage = body?.usage ?? {};
  if (schema === 'anthropic-count-tokens') return NO_USAGE; // counting is free; `input_tokens` is its answer
  if (schema === 'anthropic') {
    return {
      input: num(usage.input_tokens),
      output: num(usage.output_tokens),
      cacheRead: num(usage.cache_read_input_tokens),
      cacheWrite: num(usage.cache_creation_input_tokens),
    };
  }
  if (schema === 'openai-responses') {
    const cachedInput = num(usage.input_tokens_details?.cached_tokens);
    return {
      input: num(usage.input_tokens) - cachedInput,
      output: num(usage.output_tokens),
      cacheRead: cachedInput,
      cacheWrite: 0,
    };
  }
  const cached = num(usage.prompt_tokens_details?.cached_tokens);
  return {
    input: num(usage.prompt_tokens) - cached,
    output: num(usage.completion_tokens),
    cacheRead: cached,
    cacheWrite: 0,
  };
}

/**
 * Reads usage off a stream as it passes: OpenAI chat sends it in the last chunk (asked for with
 * `stream_options.include_usage`), the Responses API in `response.completed`, Anthropic in `message_start` and
 * `message_delta`. Until then, the text seen
 * counts (4 characters a token), so a stream the client drops is billed for what was produced.
 */
export class StreamUsage {
  private buffered = '';
  private reported?: TokenUsage;
  private anthropic: TokenUsage = { ...NO_USAGE };
  private textChars = 0;

  constructor(
    private readonly schema: CallSchema,
    private readonly inputEstimate: number,
  ) {}

  push(chunk: Buffer): void {
    this.buffered += chunk.toString('utf8');
    let newline: number;
    while ((newline = this.buffered.indexOf('\n')) >= 0) {
      const line = this.buffered.slice(0, newline).trim();
      this.buffered = this.buffered.slice(newline + 1);
      if (!line.startsWith('data:')) continue;
      const data = line.slice(5).trim();
      if (!data || data === '[DONE]') continue;
      try {
        this.read(JSON.parse(data) as Json);
      } catch {}
    }
  }

  private read(event: Json): void {
    if (this.schema === 'openai-chat' || this.schema === 'openai-completions') {
      if (event.usage) this.reported = usageOfAnswer('openai-chat', event);
      for (const choice of event.choices ?? [])
        this.textChars += String(choice?.delta?.content ?? choice?.text ?? '').length;
      return;
    }
    if (this.schema === 'openai-responses') {
      if (event.type === 'response.output_text.delta') this.textChars += String(event.delta ?? '').length;
      if (event.response?.usage) this.reported = usageOfAnswer('openai-responses', event.response);
      return;
    }
    if (event.type === 'message_start')
      this.anthropic = { ...usageOfAnswer('anthropic', event.message ?? {}) };
    if (event.type === 'message_delta') this.anthropic.output = num(event.usage?.output_tokens);
    if (event.type === 'content_block_delta') this.textChars += String(event.delta?.text ?? '').length;
    if (event.type === 'message_stop') this.reported = this.anthropic;
  }

  /** What the stream cost: the provider's figures when it sent them, else what was seen. */
  result(): TokenUsage {
    if (this.reported) return this.reported;
    const output = Math.max(this.anthropic.output, Math.ceil(this.textChars / 4));
    return { ...this.anthropic, input: this.anthropic.input || this.inputEstimate, output };
  }
}

/** Micro-cents, rounded up: prices are micro-cents per million tokens. */
export function costOf(model: CatalogueModel, usage: TokenUsage): bigint {
  const total =
    BigInt(usage.input) * model.prices.input +
    BigInt(usage.output) * model.prices.output +
    BigInt(usage.cacheRead) * model.prices.cacheRead +
    BigInt(usage.cacheWrite) * model.prices.cacheWrite;
  return (total + 999_999n) / 1_000_000n;
}

function num(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? Math.floor(value) : 0;
}
