/** The info of a v1 message (user or assistant) and the ids of its parts, which every v1 shape builds on. */
import type { AssistantMessage, SessionMessageInfo, UserMessage } from '../sessions/session-message.types';
import type { Tokens } from '../sessions/session.types';

/** Part ids sort in the order of the message's parts: step start, content, step finish. */
export function partID(messageID: string, slot: number | 'start' | 'finish'): string {
  const n = slot === 'start' ? 0 : slot === 'finish' ? 9999 : slot + 1;
  return `prt_${messageID.slice(4)}${String(n).padStart(4, '0')}`;
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
