/** OpenAI chat completions as the scripted model server speaks them: a `chat.completion`, its chunk stream, errors. */
import type { ServerResponse } from 'node:http';
import { closed, pieces, released, split, toolArguments } from './scripted-turns';
import type { ScriptedAnswer, ScriptedUsage } from './scripted-turns';

/** OpenAI's error body (the Responses API, embeddings and completions answer errors the same way). */
export function openAIError(status: number, message: string) {
  return { error: { message, type: status === 429 ? 'rate_limit_exceeded' : 'server_error', code: null } };
}

/** A whole `chat.completion` with one text message and usage. */
export function chatCompletion(model: string, text: string, usage: ScriptedUsage, finish: string) {
  return {
    id: 'chatcmpl-scripted',
    object: 'chat.completion',
    created: 1,
    model,
    choices: [
      {
        index: 0,
        message: { role: 'assistant', content: text },
        finish_reason: finish,
      },
    ],
    usage: chatUsage(usage),
  };
}

/** Chat completions' usage: the cached part of the input counted in `prompt_tokens` and told apart. */
function chatUsage(usage: ScriptedUsage) {
  return {
    prompt_tokens: usage.input + (usage.cacheRead ?? 0),
    completion_tokens: usage.output,
    total_tokens: usage.input + (usage.cacheRead ?? 0) + usage.output,
    prompt_tokens_details: { cached_tokens: usage.cacheRead ?? 0 },
  };
}

/** `chat.completion.chunk` events: reasoning, text, tool calls with split arguments, the finish, then usage. */
export async function streamOpenAI(res: ServerResponse, turn: ScriptedAnswer, model: string): Promise<void> {
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
    usage: { ...chatUsage(usage), completion_tokens_details: { reasoning_tokens: usage.reasoning ?? 0 } },
  });
  res.end('data: [DONE]\n\n');
}
