import type {
  LanguageModelV3FilePart,
  LanguageModelV3Message,
  LanguageModelV3TextPart,
  LanguageModelV3ToolResultOutput,
  LanguageModelV3ToolResultPart,
  SharedV3ProviderOptions,
} from '@ai-sdk/provider';
import { numberLines } from '../tools/read.tool';

/** One message of the prompt as the provider model takes it (the AI SDK's provider-level prompt). */
export type PromptMessage = LanguageModelV3Message;

/**
 * The parts of `Session.Message.Info` (reference §4.10) that the model sees. Structural, so the stored
 * transcript can be passed as it is; message types not listed here are left out of the request.
 */
export type TranscriptMessage =
  | { type: 'user'; text: string; files?: TranscriptFile[] }
  | { type: 'synthetic' | 'system' | 'skill'; text: string }
  | { type: 'shell'; command: string; output?: { output: string } | string }
  | { type: 'compaction'; status: string; summary?: string }
  | { type: 'assistant'; content: TranscriptContent[] }
  | { type: string; [key: string]: unknown };

export interface TranscriptFile {
  data: string;
  mime: string;
  name?: string;
  source?: { type: string; uri?: string };
}

/** The kinds of attachment a model may or may not take (opencode's `modalities.input`, less text). */
export type FileModality = 'image' | 'pdf' | 'audio' | 'video';
export const FILE_MODALITIES: ReadonlySet<string> = new Set<FileModality>(['image', 'pdf', 'audio', 'video']);

/** What the model of a step can take as file parts. */
export interface HistoryOptions {
  accepts: ReadonlySet<FileModality>;
}

const ACCEPTS_ALL: HistoryOptions = { accepts: FILE_MODALITIES as ReadonlySet<FileModality> };

/** The modality of an attachment by its mime type; undefined for text and anything else sent as it is. */
export function fileModality(mime: string): FileModality | undefined {
  if (mime === 'application/pdf') return 'pdf';
  const kind = mime.split('/')[0];
  return kind === 'image' || kind === 'audio' || kind === 'video' ? kind : undefined;
}

export type TranscriptContent =
  | { type: 'text'; text: string }
  | { type: 'reasoning'; text: string; state?: unknown }
  | {
      type: 'tool';
      id: string;
      name: string;
      providerState?: unknown;
      /** `compacted`: the output was pruned (an old result the model no longer needs in full). */
      time?: { compacted?: number };
      state:
        | { status: 'streaming' | 'pending'; input?: unknown }
        | { status: 'running'; input: unknown }
        | { status: 'completed'; input: unknown; content: Array<{ type: string; text?: string }> }
        | { status: 'error'; input: unknown; error: { type?: string; message: string } };
    };

/** The mime type of a directory attachment (its data is the list tool's listing). */
export const DIRECTORY_MIME = 'application/x-directory';

const INTERRUPTED = 'The tool call was interrupted before it finished.';

/**
 * The transcript as provider prompt messages: user-side messages as user text, each assistant message as its
 * text, reasoning and tool calls followed by one tool message with a result for every call (providers refuse a
 * call without a result, so unfinished calls get an "interrupted" error result). Built directly in the
 * provider's shape (what `streamText` would produce from the same messages, without validating them again), so
 * a caller can keep the result and append the messages of each new step.
 */
export function toPromptMessages(
  transcript: TranscriptMessage[],
  options: HistoryOptions = ACCEPTS_ALL,
): PromptMessage[] {
  const messages: PromptMessage[] = [];
  // A completed compaction stands for everything before it: its summary is what the model gets of those turns.
  const compacted = lastCompaction(transcript);
  if (compacted >= 0) {
    const summary = (transcript[compacted] as { summary: string }).summary;
    messages.push(userText(SUMMARY_QUESTION), {
      role: 'assistant',
      content: [{ type: 'text', text: summary }],
    });
  }
  for (const message of transcript.slice(compacted + 1)) {
    switch (message.type) {
      case 'user': {
        const user = message as Extract<TranscriptMessage, { type: 'user' }>;
        // A prompt whose parts a client removed (opencode's part.delete) leaves nothing to send.
        if (user.text === '' && !user.files?.length) break;
        messages.push({ role: 'user', content: userContent(user, options) });
        break;
      }
      case 'synthetic':
      case 'system':
      case 'skill':
        messages.push(userText((message as { text: string }).text));
        break;
      case 'shell': {
        const shell = message as Extract<TranscriptMessage, { type: 'shell' }>;
        const output = typeof shell.output === 'string' ? shell.output : (shell.output?.output ?? '');
        messages.push(userText(`The user ran \`${shell.command}\`:\n${output}`));
        break;
      }
      case 'assistant':
        assistantMessages((message as Extract<TranscriptMessage, { type: 'assistant' }>).content, messages);
        break;
      default:
        break; // agent, model and location switches, compaction markers: not for the model
    }
  }
  return messages;
}

/** The user turn the summary answers, as opencode words it. */
export const SUMMARY_QUESTION = 'What did we do so far?';
/** What the model gets instead of a pruned tool output. */
export const PRUNED_OUTPUT = '[Old tool result content cleared]';

/** The index of the last completed compaction with a summary, or -1. */
export function lastCompaction(transcript: TranscriptMessage[]): number {
  for (let i = transcript.length - 1; i >= 0; i--) {
    const message = transcript[i] as { type: string; status?: string; summary?: string };
    if (message.type === 'compaction' && message.status === 'completed' && message.summary) return i;
  }
  return -1;
}

function userText(text: string): PromptMessage {
  return { role: 'user', content: [{ type: 'text', text }] };
}

function userContent(
  message: { text: string; files?: TranscriptFile[] },
  options: HistoryOptions,
): Array<LanguageModelV3TextPart | LanguageModelV3FilePart> {
  if (!message.files?.length) return [{ type: 'text', text: message.text }];
  const parts: Array<LanguageModelV3TextPart | LanguageModelV3FilePart> = [];
  if (message.text !== '') parts.push({ type: 'text', text: message.text });
  for (const file of message.files) {
    const mentioned = mentionedFile(file);
    if (mentioned) {
      parts.push(...mentioned);
      continue;
    }
    const refused = unsupportedFile(file, options);
    if (refused) {
      parts.push(refused);
      continue;
    }
    parts.push({
      type: 'file',
      data: file.data,
      mediaType: file.mime,
      ...(file.name ? { filename: file.name } : {}),
    });
  }
  return parts;
}

/**
 * A file the user mentioned by path (a `file://` attachment, read when the prompt was admitted), as opencode
 * shows it: a text file as if the read tool had read it, a directory as the list tool's listing, other files
 * that are not media as a note. Undefined for inline attachments and media (images, PDFs: see `unsupportedFile`).
 */
function mentionedFile(file: TranscriptFile): LanguageModelV3TextPart[] | undefined {
  const uri = file.source?.type === 'uri' ? file.source.uri : undefined;
  if (!uri?.startsWith('file:')) return undefined;
  const url = new URL(uri);
  const path = decodeURIComponent(url.pathname);
  const text = (value: string): LanguageModelV3TextPart => ({ type: 'text', text: value });
  if (file.mime === DIRECTORY_MIME) {
    return [
      text(`Called the list tool with the following input: ${JSON.stringify({ path })}`),
      text(Buffer.from(file.data, 'base64').toString('utf8')),
    ];
  }
  if (file.mime.startsWith('text/')) {
    const start = Number(url.searchParams.get('start') ?? 1) || 1;
    const end = Number(url.searchParams.get('end') ?? 0) || undefined;
    const input = { filePath: path, ...(end ? { offset: start, limit: end - start + 1 } : {}) };
    const content = Buffer.from(file.data, 'base64').toString('utf8');
    return [
      text(`Called the Read tool with the following input: ${JSON.stringify(input)}`),
      text(numberLines(content, input.offset, input.limit).output),
    ];
  }
  if (fileModality(file.mime)) return undefined; // sent as a file part, or a note when the model cannot take it
  return [
    text(`[The user attached ${path} (${file.mime}); its content is not shown because it is not text.]`),
  ];
}

/**
 * The note a model gets instead of an image, PDF, audio or video it cannot take, whatever the attachment's
 * source (a pasted `data:` URL or a file the user mentioned): opencode's words, so the model tells the person.
 */
function unsupportedFile(file: TranscriptFile, options: HistoryOptions): LanguageModelV3TextPart | undefined {
  const modality = fileModality(file.mime);
  if (!modality) return undefined;
  if (modality === 'image' && !file.data) {
    return { type: 'text', text: 'ERROR: Image file is empty or corrupted. Please provide a valid image.' };
  }
  if (options.accepts.has(modality)) return undefined;
  const name = file.name ? `"${file.name}"` : modality;
  return {
    type: 'text',
    text: `ERROR: Cannot read ${name} (this model does not support ${modality} input). Inform the user.`,
  };
}

function assistantMessages(content: TranscriptContent[], messages: PromptMessage[]): void {
  const parts: Extract<PromptMessage, { role: 'assistant' }>['content'] = [];
  const results: LanguageModelV3ToolResultPart[] = [];
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
        output: part.time?.compacted ? { type: 'text', value: PRUNED_OUTPUT } : toolOutput(part.state),
      });
    }
  }
  if (parts.length > 0) messages.push({ role: 'assistant', content: parts });
  if (results.length > 0) messages.push({ role: 'tool', content: results });
}

function toolOutput(
  state: Extract<TranscriptContent, { type: 'tool' }>['state'],
): LanguageModelV3ToolResultOutput {
  if (state.status === 'completed') {
    const text = state.content
      .map((item) => (item.type === 'text' ? (item.text ?? '') : `[${item.type}]`))
      .join('\n');
    return { type: 'text', value: text };
  }
  if (state.status === 'error') return { type: 'error-text', value: state.error.message };
  return { type: 'error-text', value: INTERRUPTED };
}

/** What the provider attached to a part (`ProviderState`), given back as the part's provider options. */
function providerOptions(state: unknown): { providerOptions?: SharedV3ProviderOptions } {
  return state && typeof state === 'object' ? { providerOptions: state as SharedV3ProviderOptions } : {};
}
