/** The words a connection and the gateway's catalogue share (the gateway reads connections, not the reverse). */

/** The API a provider speaks: a catalogue provider's `schema`, or a connection's. */
export const SCHEMAS = ['openai-chat', 'openai-responses', 'anthropic'] as const;
export type UpstreamSchema = (typeof SCHEMAS)[number];

/** What a model is for: `embedding` models only on the embeddings route, `chat` ones never there; unset, both. */
export const MODEL_KINDS = ['chat', 'embedding'] as const;
export type ModelKind = (typeof MODEL_KINDS)[number];

export function isModelKind(value: unknown): value is ModelKind {
  return MODEL_KINDS.includes(value as ModelKind);
}
