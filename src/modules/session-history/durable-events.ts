import type { SessionMessageInfo } from '../sessions/session-message.types';

/**
 * A session's history as opencode's durable `session.next.*` events, derived from the stored transcript:
 * Outpost keeps messages rather than an event log, so the events are numbered by their place in it (`seq`).
 */
export interface DurableEvent {
  id: string;
  type: string;
  durable: { aggregateID: string; seq: number; version: 1 };
  data: Record<string, unknown>;
}

type Draft = { type: string; data: Record<string, unknown> };

function drafts(message: SessionMessageInfo, sessionID: string): Draft[] {
  const timestamp = message.time.created;
  const base = { timestamp, sessionID };
  switch (message.type) {
    case 'user':
      return [
        {
          type: 'session.next.prompted',
          data: {
            ...base,
            messageID: message.id,
            prompt: {
              text: message.text,
              ...(message.files ? { files: message.files } : {}),
              ...(message.agents ? { agents: message.agents } : {}),
            },
            delivery: 'steer',
          },
        },
      ];
    case 'agent-switched':
      return [
        {
          type: 'session.next.agent.switched',
          data: { ...base, messageID: message.id, agent: message.agent },
        },
      ];
    case 'model-switched':
      return [
        {
          type: 'session.next.model.switched',
          data: { ...base, messageID: message.id, model: message.model },
        },
      ];
    case 'assistant':
      return assistantDrafts(message, base);
    default:
      return [];
  }
}

type AssistantMessage = Extract<SessionMessageInfo, { type: 'assistant' }>;
type Step = { timestamp: number; sessionID: string; assistantMessageID: string };

/** An assistant message as a step: started, each text, reasoning and tool call, then ended or failed. */
function assistantDrafts(message: AssistantMessage, base: { timestamp: number; sessionID: string }): Draft[] {
  const step: Step = { ...base, assistantMessageID: message.id };
  const out: Draft[] = [
    { type: 'session.next.step.started', data: { ...step, agent: message.agent, model: message.model } },
  ];
  message.content.forEach((content, index) => {
    const partID = `${message.id}:${index}`;
    if (content.type === 'text')
      out.push({ type: 'session.next.text.ended', data: { ...step, textID: partID, text: content.text } });
    else if (content.type === 'reasoning')
      out.push({
        type: 'session.next.reasoning.ended',
        data: { ...step, reasoningID: partID, text: content.text },
      });
    else out.push(...toolDrafts(content, step));
  });
  if (message.time.completed) out.push(stepEnd(message, { ...step, timestamp: message.time.completed }));
  return out;
}

/** A tool call: called, then its success or failure once it has one. */
function toolDrafts(
  content: Extract<AssistantMessage['content'][number], { type: 'tool' }>,
  step: Step,
): Draft[] {
  const state = content.state;
  const input = state.status === 'streaming' ? {} : state.input;
  const provider = { executed: content.executed ?? false };
  const call = { ...step, timestamp: content.time.created, callID: content.id };
  const out: Draft[] = [
    { type: 'session.next.tool.called', data: { ...call, tool: content.name, input, provider } },
  ];
  const end = { ...call, timestamp: content.time.completed ?? content.time.created };
  if (state.status === 'completed')
    out.push({
      type: 'session.next.tool.success',
      data: { ...end, structured: state.metadata ?? {}, content: state.content, provider },
    });
  else if (state.status === 'error')
    out.push({
      type: 'session.next.tool.failed',
      data: { ...end, error: { type: 'unknown', message: state.error.message }, provider },
    });
  return out;
}

function stepEnd(message: AssistantMessage, ended: Step): Draft {
  if (message.error)
    return {
      type: 'session.next.step.failed',
      data: { ...ended, error: { type: 'unknown', message: message.error.message } },
    };
  return {
    type: 'session.next.step.ended',
    data: {
      ...ended,
      finish: message.finish ?? 'stop',
      cost: message.cost ?? 0,
      tokens: message.tokens ?? { input: 0, output: 0, reasoning: 0, cache: { read: 0, write: 0 } },
    },
  };
}

/** Every durable event of the transcript, `seq` counting from 1. */
export function durableEvents(messages: SessionMessageInfo[], sessionID: string): DurableEvent[] {
  const out: DurableEvent[] = [];
  for (const message of messages) {
    for (const draft of drafts(message, sessionID)) {
      const seq = out.length + 1;
      out.push({
        id: `${sessionID}:${seq}`,
        type: draft.type,
        durable: { aggregateID: sessionID, seq, version: 1 },
        data: draft.data,
      });
    }
  }
  return out;
}
