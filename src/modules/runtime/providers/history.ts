import type { AssistantContent, ModelMessage, ProviderMetadata, ToolContent, UserContent } from 'ai';

/**
 * The parts of `Session.Message.Info` (reference §4.10) that the model sees. Structural, so the stored
 * transcript can be passed as it is; message types not listed here are left out of the request.
 */
export type TranscriptMessage =
  | { type: 'user'; text: string; files?: TranscriptFile[] }
  | { type: 'synthetic' | 'system' | 'skill'; text: string }
  | { type: 'shell'; command: string; output?: { output: string } | string }
  | { type: 'assistant'; content: TranscriptContent[] }
  | { type: string; [key: string]: unknown };

export interface TranscriptFile {
  data: string;
  mime: string;
  name?: string;
}

export type TranscriptContent =
  | { type: 'text'; text: string }
  | { type: 'reasoning'; text: string; state?: unknown }
  | {
      type: 'tool';
      id: string;
      name: string;
      providerState?: unknown;
      state:
        | { status: 'streaming' | 'pending'; input?: unknown }
        | { status: 'running'; input: unknown }
        | { status: 'completed'; input: unknown; content: Array<{ type: string; text?: string }> }
        | { status: 'error'; input: unknown; error: { type?: string; message: string } };
    };

const INTERRUPTED = 'The tool call was interrupted before it finished.';

/**
 * The transcript as AI SDK messages: user-side messages as user text, each assistant message as its text,
 * reasoning and tool calls followed by one tool message with a result for every call (providers refuse a
 * call without a result, so unfinished calls get an "interrupted" error result).
 */
export function toModelMessages(transcript: TranscriptMessage[]): ModelMessage[] {
  const messages: ModelMessage[] = [];
  for (const message of transcript) {
    switch (message.type) {
      case 'user':
        messages.push({
          role: 'user',
          content: userContent(message as Extract<TranscriptMessage, { type: 'user' }>),
        });
        break;
      case 'synthetic':
      case 'system':
      case 'skill':
        messages.push({ role: 'user', content: (message as { text: string }).text });
        break;
      case 'shell': {
        const shell = message as Extract<TranscriptMessage, { type: 'shell' }>;
        const output = typeof shell.output === 'string' ? shell.output : (shell.output?.output ?? '');
        messages.push({ role: 'user', content: `The user ran \`${shell.command}\`:\n${output}` });
        break;
      }
      case 'assistant':
        messages.push(
          ...assistantMessages((message as Extract<TranscriptMessage, { type: 'assistant' }>).content),
        );
        break;
      default:
        break; // agent, model and location switches, compaction markers: not for the model
    }
  }
  return messages;
}

function userContent(message: { text: string; files?: TranscriptFile[] }): UserContent {
  if (!message.files?.length) return message.text;
  return [
    { type: 'text', text: message.text },
    ...message.files.map((file) => ({
      type: 'file' as const,
      data: file.data,
      mediaType: file.mime,
      ...(file.name ? { filename: file.name } : {}),
    })),
  ];
}

function assistantMessages(content: TranscriptContent[]): ModelMessage[] {
  const parts: Exclude<AssistantContent, string> = [];
  const results: ToolContent = [];
  for (const part of content) {
    if (part.type === 'text') {
      if (part.text) parts.push({ type: 'text', text: part.text });
    } else if (part.type === 'reasoning') {
      parts.push({ type: 'reasoning', text: part.text, ...providerOptions(part.state) });
    } else if (part.type === 'tool') {
      const input = part.state.input ?? {};
      parts.push({
        type: 'tool-call',
        toolCallId: part.id,
        toolName: part.name,
        input: typeof input === 'string' ? {} : input,
        ...providerOptions(part.providerState),
      });
      results.push({
        type: 'tool-result',
        toolCallId: part.id,
        toolName: part.name,
        output: toolOutput(part.state),
      });
    }
  }
  const messages: ModelMessage[] = [];
  if (parts.length > 0) messages.push({ role: 'assistant', content: parts });
  if (results.length > 0) messages.push({ role: 'tool', content: results });
  return messages;
}

function toolOutput(state: Extract<TranscriptContent, { type: 'tool' }>['state']) {
  if (state.status === 'completed') {
    const text = state.content
      .map((item) => (item.type === 'text' ? (item.text ?? '') : `[${item.type}]`))
      .join('\n');
    return { type: 'text' as const, value: text };
  }
  if (state.status === 'error') return { type: 'error-text' as const, value: state.error.message };
  return { type: 'error-text' as const, value: INTERRUPTED };
}

/** What the provider attached to a part (`ProviderState`), given back as the part's provider options. */
function providerOptions(state: unknown): { providerOptions?: ProviderMetadata } {
  return state && typeof state === 'object' ? { providerOptions: state as ProviderMetadata } : {};
}
