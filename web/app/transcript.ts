import type { AssistantContent, EventCatalog, SessionMessageInfo } from './types';

type Delta = EventCatalog['session.message.part.delta'];

export type TranscriptAction =
  | { type: 'reset'; messages: SessionMessageInfo[] }
  | { type: 'upsert'; message: SessionMessageInfo }
  | { type: 'delta'; delta: Delta };

/**
 * The transcript as the page holds it: messages by id (ascending, as the API sorts them), kept whole by the
 * messages of `session.message.created/updated` and grown by the deltas streamed in between.
 */
export function transcriptReducer(
  messages: SessionMessageInfo[],
  action: TranscriptAction,
): SessionMessageInfo[] {
  switch (action.type) {
    case 'reset':
      return action.messages;
    case 'upsert': {
      const at = messages.findIndex((m) => m.id === action.message.id);
      if (at >= 0) return messages.map((m, i) => (i === at ? action.message : m));
      const after = messages.findIndex((m) => m.id > action.message.id);
      return after < 0
        ? [...messages, action.message]
        : [...messages.slice(0, after), action.message, ...messages.slice(after)];
    }
    case 'delta': {
      const { messageID, index, type, delta } = action.delta;
      const at = messages.findIndex((m) => m.id === messageID);
      const message = messages[at];
      if (!message || message.type !== 'assistant') return messages;
      const content = [...message.content];
      const part = content[index];
      if (type === 'tool-input') {
        if (part?.type !== 'tool' || part.state.status !== 'streaming') return messages;
        content[index] = { ...part, state: { status: 'streaming', input: part.state.input + delta } };
      } else if (!part) {
        while (content.length < index) content.push({ type: 'text', text: '' });
        content[index] = { type, text: delta } as AssistantContent;
      } else if (part.type === type) {
        content[index] = { ...part, text: part.text + delta };
      } else return messages;
      return messages.map((m, i) => (i === at ? { ...message, content } : m));
    }
  }
}
