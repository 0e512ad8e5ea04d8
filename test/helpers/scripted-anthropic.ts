/** Anthropic messages as the scripted model server speaks them: a whole `message`, its event stream, errors. */
import type { ServerResponse } from 'node:http';
import { closed, pieces, released, split, toolArguments } from './scripted-turns';
import type { ScriptedAnswer, ScriptedUsage } from './scripted-turns';

/** Anthropic's error body (token counts answer errors the same way). */
export function anthropicError(status: number, message: string) {
  return { type: 'error', error: { type: status === 429 ? 'rate_limit_error' : 'api_error', message } };
}

/** A whole `message` with one text block and usage. */
export function anthropicMessage(model: string, text: string, usage: ScriptedUsage) {
  return {
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
}

/** The messages event stream: a thinking block, a text block, one block a tool call, then the stop reason. */
export async function streamAnthropic(
  res: ServerResponse,
  turn: ScriptedAnswer,
  model: string,
): Promise<void> {
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
