/**
 * `sanitize=true` of an export (reference §7.10): every piece of user content becomes
 * `[redacted:<kind>:<id>]` (empty strings stay empty), objects of content become `{ redacted: "<kind>:<id>" }`;
 * the structure, ids, times, token counts, costs, models and agents stay.
 */
import type {
  AssistantContent,
  FileAttachment,
  Json,
  SessionMessageInfo,
  ToolContent,
  ToolState,
} from '../sessions/session-message.types';
import type { SessionInfo } from '../sessions/session.types';

const text = (value: string, kind: string, id: string) => (value === '' ? '' : `[redacted:${kind}:${id}]`);
const blob = (kind: string, id: string) => ({ redacted: `${kind}:${id}` });
const path = (value: string, kind: string, id: string) => (value === '' ? '' : `/[redacted:${kind}:${id}]`);

function mention<T extends { mention?: { start: number; end: number; text: string } }>(
  item: T,
  kind: string,
  id: string,
): T {
  return item.mention
    ? { ...item, mention: { ...item.mention, text: text(item.mention.text, kind, id) } }
    : item;
}

export function sanitizeSession(info: SessionInfo): SessionInfo {
  const { id } = info;
  const out: SessionInfo = {
    ...info,
    title: text(info.title, 'session-title', id),
    location: { directory: path(info.location.directory, 'session-directory', id) },
  };
  if (info.subpath !== undefined) out.subpath = text(info.subpath, 'session-subpath', id);
  if (info.metadata !== undefined) out.metadata = blob('session-metadata', id);
  return out;
}

function file(attachment: FileAttachment, id: string): FileAttachment {
  const out: FileAttachment = { ...attachment, data: '', source: { type: 'inline' } };
  if (attachment.name !== undefined) out.name = text(attachment.name, 'file-name', id);
  if (attachment.description !== undefined)
    out.description = text(attachment.description, 'file-description', id);
  return mention(out, 'file-mention', id);
}

function toolContent(item: ToolContent, id: string): ToolContent {
  if (item.type === 'text') return { ...item, text: text(item.text, 'tool-output', id) };
  const out: ToolContent = { ...item, uri: text(item.uri, 'tool-file-uri', id) };
  if (item.name !== undefined) out.name = text(item.name, 'tool-file-name', id);
  return out;
}

function toolState(state: ToolState, id: string): ToolState {
  if (state.status === 'streaming') return { ...state, input: text(state.input, 'tool-input', id) };
  const input = blob('tool-input', id);
  if (state.status === 'running') return { ...state, input, metadata: blob('tool-metadata', id) };
  const out = { ...state, input } as ToolState & { content?: ToolContent[]; metadata?: Record<string, Json> };
  if (out.content) out.content = out.content.map((item) => toolContent(item, id));
  if (out.metadata) out.metadata = blob('tool-metadata', id);
  if (state.status === 'error')
    (out as typeof state).error = { ...state.error, message: text(state.error.message, 'tool-error', id) };
  return out;
}

function part(item: AssistantContent, id: string): AssistantContent {
  const out = { ...item } as AssistantContent & { native?: Json };
  if ('state' in item && item.type !== 'tool' && item.state !== undefined)
    (out as { state?: Json }).state = blob('provider-state', id);
  if (out.native !== undefined) out.native = blob('provider-state', id);
  if (item.type === 'text')
    return { ...out, text: text(item.text, 'assistant-text', id) } as AssistantContent;
  if (item.type === 'reasoning')
    return { ...out, text: text(item.text, 'reasoning', id) } as AssistantContent;
  const tool = out as Extract<AssistantContent, { type: 'tool' }>;
  if (tool.providerState !== undefined) tool.providerState = blob('provider-state', item.id);
  if (tool.providerResultState !== undefined) tool.providerResultState = blob('provider-state', item.id);
  tool.state = toolState(item.state, item.id);
  return tool;
}

export function sanitizeMessage(message: SessionMessageInfo): SessionMessageInfo {
  const { id } = message;
  const out = { ...message } as SessionMessageInfo;
  if (message.metadata !== undefined) out.metadata = blob('message-metadata', id);
  switch (out.type) {
    case 'user':
      out.text = text(out.text, 'user-text', id);
      if (out.files) out.files = out.files.map((attachment) => file(attachment, id));
      if (out.agents)
        out.agents = out.agents.map((agent) =>
          mention({ ...agent, name: text(agent.name, 'agent-name', id) }, 'agent-mention', id),
        );
      if (out.skills)
        out.skills = out.skills.map((skill) =>
          mention(
            { ...skill, name: text(skill.name, 'skill-name', id), text: text(skill.text, 'skill-text', id) },
            'skill-mention',
            id,
          ),
        );
      break;
    case 'synthetic':
    case 'system':
      out.text = text(out.text, `${out.type}-text`, id);
      if (out.description !== undefined)
        out.description = text(out.description, `${out.type}-description`, id);
      break;
    case 'skill':
      out.name = text(out.name, 'skill-name', id);
      out.text = text(out.text, 'skill-text', id);
      break;
    case 'shell':
      out.command = text(out.command, 'shell-command', id);
      if (out.output) out.output = { ...out.output, output: text(out.output.output, 'shell-output', id) };
      break;
    case 'location-switched':
      out.location = { directory: path(out.location.directory, 'directory', id) };
      if (out.previous) out.previous = { directory: path(out.previous.directory, 'directory', id) };
      if (out.subpath !== undefined) out.subpath = text(out.subpath, 'subpath', id);
      break;
    case 'compaction':
      if (out.summary !== undefined) out.summary = text(out.summary, 'compaction-summary', id);
      if (out.recent !== undefined) out.recent = text(out.recent, 'compaction-recent', id);
      break;
    case 'assistant':
      out.content = out.content.map((item) => part(item, id));
      break;
  }
  return out;
}

/** Settled: not an assistant message still streaming, nor a shell or compaction still running. */
export function isSettled(message: SessionMessageInfo): boolean {
  if (message.type === 'assistant') return message.time.completed !== undefined;
  if (message.type === 'shell' || message.type === 'compaction') return message.status !== 'running';
  return true;
}
