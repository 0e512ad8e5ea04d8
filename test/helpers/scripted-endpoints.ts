import type { ServerResponse } from 'node:http';

/** The endpoints beside the chat APIs a scripted model server answers: OpenAI's embeddings and legacy completions, Anthropic's token count. */
export type OtherEndpoint = 'embeddings' | 'completions' | 'count_tokens';

/** Which of them `path` is (`…/embeddings`, `…/completions` but not `…/chat/completions`, `…/messages/count_tokens`). */
export function otherEndpoint(path: string): OtherEndpoint | null {
  if (path.endsWith('/embeddings')) return 'embeddings';
  if (path.endsWith('/messages/count_tokens')) return 'count_tokens';
  if (path.endsWith('/completions') && !path.endsWith('/chat/completions')) return 'completions';
  return null;
}

/** OpenAI's vectors: numbers, or (as its SDK asks by default) the float32 bytes in base64. */
function vector(format: unknown): number[] | string {
  const numbers = [0.5, 0.25, 0.125];
  return format === 'base64' ? Buffer.from(new Float32Array(numbers).buffer).toString('base64') : numbers;
}

interface Turn {
  text?: string | string[];
  usage?: { input: number; output: number };
}

/**
 * Answers one call of `endpoint` from a scripted turn: embeddings (one 3-number vector per input, `usage.input`
 * prompt tokens), completions (the turn's text, whole or streamed as `text_completion` chunks ending with usage
 * when asked for), and token counts (`usage.input` as `input_tokens`).
 */
export async function answerOther(
  res: ServerResponse,
  endpoint: OtherEndpoint,
  turn: Turn,
  body: Record<string, unknown>,
): Promise<void> {
  const usage = turn.usage ?? { input: 0, output: 0 };
  const model = typeof body.model === 'string' ? body.model : 'scripted';
  const json = (value: object) =>
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(value));
  if (endpoint === 'count_tokens') return void json({ input_tokens: usage.input });
  if (endpoint === 'embeddings') {
    const inputs = Array.isArray(body.input) ? body.input : [body.input];
    return void json({
      object: 'list',
      model,
      data: inputs.map((_, index) => ({
        object: 'embedding',
        index,
        embedding: vector(body.encoding_format),
      })),
      usage: { prompt_tokens: usage.input, total_tokens: usage.input },
    });
  }
  const pieces = turn.text === undefined ? [] : Array.isArray(turn.text) ? turn.text : [turn.text];
  const counted = {
    prompt_tokens: usage.input,
    completion_tokens: usage.output,
    total_tokens: usage.input + usage.output,
  };
  if (body.stream !== true) {
    return void json({
      id: 'cmpl-scripted',
      object: 'text_completion',
      created: 1,
      model,
      choices: [{ index: 0, text: pieces.join(''), finish_reason: 'stop', logprobs: null }],
      usage: counted,
    });
  }
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  const chunk = (value: object) => res.write(`data: ${JSON.stringify(value)}\n\n`);
  for (const text of pieces)
    chunk({
      id: 'cmpl-scripted',
      object: 'text_completion',
      created: 1,
      model,
      choices: [{ index: 0, text, finish_reason: null, logprobs: null }],
    });
  chunk({
    id: 'cmpl-scripted',
    object: 'text_completion',
    created: 1,
    model,
    choices: [{ index: 0, text: '', finish_reason: 'stop', logprobs: null }],
  });
  if ((body.stream_options as { include_usage?: boolean } | undefined)?.include_usage)
    chunk({ id: 'cmpl-scripted', object: 'text_completion', created: 1, model, choices: [], usage: counted });
  res.end('data: [DONE]\n\n');
}
