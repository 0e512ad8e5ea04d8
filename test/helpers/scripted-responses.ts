/** OpenAI's Responses API as the scripted model server speaks it (text only): a `response`, its typed events. */
import type { ServerResponse } from 'node:http';
import { closed, pieces, released } from './scripted-turns';
import type { ScriptedAnswer, ScriptedUsage } from './scripted-turns';

/** A Responses API `response` object, completed, with one text message and usage. */
export function responseObject(model: string, text: string, usage: ScriptedUsage, status = 'completed') {
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
export async function streamResponses(
  res: ServerResponse,
  turn: ScriptedAnswer,
  model: string,
): Promise<void> {
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
