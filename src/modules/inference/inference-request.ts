import { UpstreamSchema } from './gateway.config';
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
}

/** Where each API schema's requests go, after the provider's base URL. */
export const SCHEMA_PATHS: Record<UpstreamSchema, string> = {
  'openai-chat': '/chat/completions',
  'openai-responses': '/responses',
  anthropic: '/messages',
};

/** The member holding the conversation, and the one limiting the output, of each schema. */
const SHAPES: Record<
  UpstreamSchema,
  { input: string; isInput: (value: unknown) => boolean; limits: string[] }
> = {
  'openai-chat': {
    input: 'messages',
    isInput: Array.isArray,
    limits: ['max_completion_tokens', 'max_tokens'],
  },
  'openai-responses': {
    input: 'input',
    isInput: (value) => typeof value === 'string' || Array.isArray(value),
    limits: ['max_output_tokens'],
  },
  anthropic: { input: 'messages', isInput: Array.isArray, limits: ['max_tokens'] },
};

/** No model produces more output in one answer; a larger limit is a typo (and would overflow the hold). */
export const MAX_OUTPUT_TOKENS = 1_000_000;

/** Validates what the gateway reads of a request, naming the member at fault. */
export function parseInferenceRequest(body: unknown, schema: UpstreamSchema): InferenceRequest {
  if (!body || typeof body !== 'object' || Array.isArray(body))
    throw new InvalidInferenceRequestError('body', 'must be a JSON object');
  const b = body as Json;
  if (typeof b.model !== 'string' || !b.model)
    throw new InvalidInferenceRequestError('model', 'must be a model id');
  const shape = SHAPES[schema];
  if (!shape.isInput(b[shape.input])) {
    throw new InvalidInferenceRequestError(
      shape.input,
      schema === 'openai-responses' ? 'must be a string or an array' : 'must be an array',
    );
  }
  if (b.stream !== undefined && typeof b.stream !== 'boolean')
    throw new InvalidInferenceRequestError('stream', 'must be true or false');
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
  };
}
