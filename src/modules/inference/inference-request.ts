import { CallSchema } from './gateway.config';
import { InvalidInferenceRequestError } from './gateway.errors';

type Json = Record<string, unknown>;

/** The members of a request the gateway itself reads; everything else goes to the provider as sent. */
export interface InferenceRequest {
  model: string;
  stream: boolean;
  /** The most output tokens the caller allows (absent: the model's own limit is held). */
  maxTokens: number | undefined;
  /** The member that holds (or would hold) the limit: named in errors about it. */
  limitField: string;
  /** What the call is paid for: input and output (chat, completions), input (embeddings), nothing (token counts). */
  pays: Pays;
}

/** Where each API schema's requests go, after the provider's base URL. */
export const SCHEMA_PATHS: Record<CallSchema, string> = {
  'openai-chat': '/chat/completions',
  'openai-responses': '/responses',
  anthropic: '/messages',
  'openai-embeddings': '/embeddings',
  'openai-completions': '/completions',
  'anthropic-count-tokens': '/messages/count_tokens',
};

const isText = (value: unknown) => typeof value === 'string' || Array.isArray(value);

/** What a call is paid for: its input and output, its input only, or nothing. */
type Pays = 'output' | 'input' | 'nothing';

interface Shape {
  /** The member holding the conversation (or the text), and what it must be. */
  input: string;
  isInput: (value: unknown) => boolean;
  /** The members limiting the output; none for calls without output. */
  limits: string[];
  pays: Pays;
}

/** Each call schema's request, as far as the gateway reads it. */
const SHAPES: Record<CallSchema, Shape> = {
  'openai-chat': {
    input: 'messages',
    isInput: Array.isArray,
    limits: ['max_completion_tokens', 'max_tokens'],
    pays: 'output',
  },
  'openai-responses': { input: 'input', isInput: isText, limits: ['max_output_tokens'], pays: 'output' },
  anthropic: { input: 'messages', isInput: Array.isArray, limits: ['max_tokens'], pays: 'output' },
  'openai-embeddings': { input: 'input', isInput: isText, limits: [], pays: 'input' },
  'openai-completions': { input: 'prompt', isInput: isText, limits: ['max_tokens'], pays: 'output' },
  // Providers count tokens free of charge.
  'anthropic-count-tokens': { input: 'messages', isInput: Array.isArray, limits: [], pays: 'nothing' },
};

/** No model produces more output in one answer; a larger limit is a typo (and would overflow the hold). */
export const MAX_OUTPUT_TOKENS = 1_000_000;

/** Validates what the gateway reads of a request, naming the member at fault. */
export function parseInferenceRequest(body: unknown, schema: CallSchema): InferenceRequest {
  if (!body || typeof body !== 'object' || Array.isArray(body))
    throw new InvalidInferenceRequestError('body', 'must be a JSON object');
  const b = body as Json;
  if (typeof b.model !== 'string' || !b.model)
    throw new InvalidInferenceRequestError('model', 'must be a model id');
  const shape = SHAPES[schema];
  if (!shape.isInput(b[shape.input])) {
    throw new InvalidInferenceRequestError(
      shape.input,
      shape.isInput === isText ? 'must be a string or an array' : 'must be an array',
    );
  }
  if (b.stream !== undefined && typeof b.stream !== 'boolean')
    throw new InvalidInferenceRequestError('stream', 'must be true or false');
  if (shape.limits.length === 0) {
    if (b.stream === true)
      throw new InvalidInferenceRequestError('stream', 'is not offered by this endpoint');
    return {
      model: b.model,
      stream: false,
      maxTokens: undefined,
      limitField: 'max_tokens',
      pays: shape.pays,
    };
  }
  const limitField = shape.limits.find((field) => b[field] !== undefined) ?? shape.limits[0];
  const max = b[limitField];
  if (
    max !== undefined &&
    (typeof max !== 'number' || !Number.isInteger(max) || max < 1 || max > MAX_OUTPUT_TOKENS)
  ) {
    throw new InvalidInferenceRequestError(
      limitField,
      `must be a whole number from 1 to ${MAX_OUTPUT_TOKENS}`,
    );
  }
  if (schema === 'anthropic' && max === undefined)
    throw new InvalidInferenceRequestError('max_tokens', 'is required');
  return {
    model: b.model,
    stream: b.stream === true,
    maxTokens: max as number | undefined,
    limitField,
    pays: 'output',
  };
}
