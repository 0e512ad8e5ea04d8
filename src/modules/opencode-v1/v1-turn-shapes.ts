/**
 * Transcript entries v1 has no message type for, as opencode's server shows them: each as a user message and the
 * assistant message that answers it.
 */
import type { CompactionMessage, ShellMessage } from '../sessions/session-message.types';
import { partID, v1AssistantInfo, V1Context } from './v1-message-info';

/**
 * A command the person ran (`shell`) as opencode shows it: a user message with a synthetic text, answered by an
 * assistant message (`answerID`, which sorts right after the shell message's id) holding one completed `bash`
 * tool part whose metadata carries the output.
 */
export function v1ShellMessages(message: ShellMessage, ctx: V1Context) {
  const output = typeof message.output === 'string' ? message.output : (message.output?.output ?? '');
  const userID = message.id;
  const id = message.answerID ?? `${message.id}_a`;
  const completed = message.time.completed ?? message.time.created;
  const agent = message.agent ?? 'build';
  const user = {
    info: {
      id: userID,
      sessionID: ctx.sessionID,
      role: 'user' as const,
      time: { created: message.time.created },
      agent,
      ...(message.model
        ? { model: { providerID: message.model.providerID, modelID: message.model.id } }
        : {}),
    },
    parts: [
      {
        id: partID(userID, 0),
        sessionID: ctx.sessionID,
        messageID: userID,
        type: 'text',
        text: 'The following tool was executed by the user',
        synthetic: true,
      },
    ],
  };
  const assistant = {
    info: {
      ...v1AssistantInfo(
        {
          id,
          type: 'assistant',
          agent,
          model: message.model ?? { providerID: '', id: '' },
          content: [],
          finish: 'stop',
          time: { created: message.time.created, completed },
        },
        { ...ctx, parentID: userID },
      ),
    },
    parts: [
      {
        id: partID(id, 0),
        sessionID: ctx.sessionID,
        messageID: id,
        type: 'tool',
        callID: message.shellID,
        tool: 'bash',
        state: {
          status: 'completed',
          input: { command: message.command },
          output,
          title: message.command,
          metadata: {
            output,
            description: message.command,
            ...(message.exit === undefined ? {} : { exit: message.exit }),
          },
          time: { start: message.time.created, end: completed },
        },
      },
    ],
  };
  return { user, assistant };
}

/**
 * A compaction as opencode shows it: a user message holding a `compaction` part (the TUI draws a divider), answered
 * by an assistant message marked `summary` whose text is the summary (once written).
 */
export function v1CompactionMessages(message: CompactionMessage, ctx: V1Context) {
  const userID = message.id;
  const id = message.answerID ?? `${message.id}_a`;
  const user = {
    info: {
      id: userID,
      sessionID: ctx.sessionID,
      role: 'user' as const,
      time: { created: message.time.created },
      agent: 'compaction',
      ...(message.model
        ? { model: { providerID: message.model.providerID, modelID: message.model.id } }
        : {}),
    },
    parts: [
      {
        id: partID(userID, 0),
        sessionID: ctx.sessionID,
        messageID: userID,
        type: 'compaction',
        auto: message.reason === 'auto',
      },
    ],
  };
  const done = message.status === 'running' ? undefined : (message.time.completed ?? message.time.created);
  const info = v1AssistantInfo(
    {
      id,
      type: 'assistant',
      agent: 'compaction',
      model: message.model ?? { providerID: '', id: '' },
      content: [],
      ...(done ? { finish: 'stop' as const } : {}),
      ...(message.error ? { error: { type: 'CompactionFailedError', message: message.error } } : {}),
      time: { created: message.time.created, ...(done ? { completed: done } : {}) },
    },
    { ...ctx, parentID: userID },
  );
  const parts = message.summary
    ? [
        {
          id: partID(id, 0),
          sessionID: ctx.sessionID,
          messageID: id,
          type: 'text',
          text: message.summary,
          time: { start: message.time.created, ...(done ? { end: done } : {}) },
        },
      ]
    : [];
  return { user, assistant: { info: { ...info, summary: true }, parts } };
}
