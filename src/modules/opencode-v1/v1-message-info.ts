/** The info of a v1 message (user or assistant) and the ids of its parts, which every v1 shape builds on. */
import type { AssistantMessage, SessionMessageInfo, UserMessage } from '../sessions/session-message.types';
import type { Tokens } from '../sessions/session.types';

/** Part ids sort in the order of the message's parts: step start, content, step finish. */
export function partID(messageID: string, slot: number | 'start' | 'finish'): string {
  const n = slot === 'start' ? 0 : slot === 'finish' ? 9999 : slot + 1;
  return `prt_${messageID.slice(4)}${String(n).padStart(4, '0')}`;
}

/**
 * Where a message keeps what v1 clients changed of its parts (`metadata`, which the model never reads): the ids
 * of its content entries (an assistant's) or files (a user's) once a removal has moved them from their places,
 * and the removed parts that have no entry of their own (a user's text, an assistant's step start and finish).
 */
export const PART_IDS = 'v1PartIDs';
export const REMOVED_PARTS = 'v1RemovedParts';

/** The v1 id of an assistant's content entry, or of a user's file, at `index` (of `content` or of `files`). */
export function entryPartID(message: SessionMessageInfo, index: number): string {
  const ids = message.metadata?.[PART_IDS];
  const kept = Array.isArray(ids) ? ids[index] : undefined;
  return typeof kept === 'string' ? kept : partID(message.id, message.type === 'user' ? index + 1 : index);
}

/** The ids of the message's removed parts that had no entry of their own. */
export function removedParts(message: SessionMessageInfo): Set<string> {
  const removed = message.metadata?.[REMOVED_PARTS];
  return new Set(Array.isArray(removed) ? removed.filter((id): id is string => typeof id === 'string') : []);
}

export const v1Tokens = (tokens?: Tokens) => {
  const t = tokens ?? { input: 0, output: 0, reasoning: 0, cache: { read: 0, write: 0 } };
  return { total: t.input + t.output + t.reasoning, ...t };
};

export interface V1Context {
  sessionID: string;
  directory: string;
  /** The user message an assistant message answers. */
  parentID?: string;
}

export function v1MessageInfo(message: SessionMessageInfo, ctx: V1Context, agent = 'build') {
  if (message.type === 'assistant') return v1AssistantInfo(message, ctx);
  const user = message as UserMessage;
  return {
    id: user.id,
    sessionID: ctx.sessionID,
    role: 'user' as const,
    time: { created: user.time.created },
    agent,
    ...(message.metadata?.model
      ? { model: message.metadata.model as unknown as { providerID: string; modelID: string } }
      : {}),
  };
}

export function v1AssistantInfo(message: AssistantMessage, ctx: V1Context) {
  return {
    id: message.id,
    sessionID: ctx.sessionID,
    role: 'assistant' as const,
    parentID: ctx.parentID ?? '',
    mode: message.agent,
    agent: message.agent,
    path: { cwd: ctx.directory, root: ctx.directory },
    cost: message.cost ?? 0,
    tokens: v1Tokens(message.tokens),
    modelID: message.model.id,
    providerID: message.model.providerID,
    time: {
      created: message.time.created,
      ...(message.time.completed ? { completed: message.time.completed } : {}),
    },
    ...(message.finish ? { finish: message.finish } : {}),
    ...(message.error ? { error: { name: 'UnknownError', data: { message: message.error.message } } } : {}),
  };
}
